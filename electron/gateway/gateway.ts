// The agent gateway: one MCP server for any agent, in front of every
// configured server. Calls run on a core Host whose prompter is the approval
// channel, so each question a server asks goes to the human in the
// Countersign app, and the agent only ever gets the final result. The
// agent-facing protocol lives in agent-server.ts; this class owns the shared
// state: the Host, the catalogue, list-changed fan-out and config reloads.
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { FileCredentialStore } from '../core/auth/credential-store';
import type { Server } from '@modelcontextprotocol/server';
import { createRemoteApproval } from '../core/approval/remote-approval';
import type { AppLauncher } from '../core/approval/approval-client';
import { readServerConfigFile, type ServerEntry } from '../core/config/server-config';
import { FileEraCache, MemoryEraCache, type EraCache } from '../core/connection/era-cache';
import type { ServerConnection } from '../core/connection/server-connection';
import { combineObservers, type HostObserver } from '../core/events';
import { Host } from '../core/host';
import { messageOf } from '../core/host-error';
import type { Prompter } from '../core/prompter/prompter';
import { loadSettings } from '../core/service/settings-store';
import { CallTracker } from './call-tracker';
import { Catalog, type ListKind } from './catalog';

export interface GatewayOptions {
  /** The data folder shared with the app: servers.json, settings, the approval channel. */
  dataDir: string;
  /** Servers to expose instead of DIR/servers.json (tests, benchmarks). */
  servers?: Record<string, ServerEntry>;
  /** How questions reach the human; default: the approval channel to the app. */
  approval?: { prompter: Prompter; observer: HostObserver; close(): void };
  /** Starts the app when a question arrives and none runs; null: never. */
  launcher?: AppLauncher | null;
  /** How long to wait for a started app. */
  startTimeoutMs?: number;
  /** Progress notifications to the agent while a call waits, when it sent a progressToken. Default 5 s. */
  progressIntervalMs?: number;
  /** Reload servers.json when it changes. Default: true when `servers` is not given. */
  watchConfig?: boolean;
  eraCache?: EraCache;
  /** Pause before re-sending a state-only round. */
  pacingDelayMs?: number;
  /** The server's time per request (the human's time never counts). Default: 30 min. */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
}

/** Backstop for one request to a server (see the Host options below). */
const REQUEST_TIMEOUT_MS = 30 * 60_000;

/** Debounce for list-changed notifications to agents (a burst of upstream changes becomes one). */
const LIST_CHANGED_DEBOUNCE_MS = 50;

export class Gateway {
  readonly host: Host;
  readonly catalog: Catalog;
  readonly tracker = new CallTracker();
  /** Identifies this gateway process in agent labels ("claude-code#stdio-1a2b3c"). */
  readonly runId = randomBytes(3).toString('hex');
  readonly progressIntervalMs: number;
  readonly log: (line: string) => void;
  private readonly agents = new Set<Server>();
  private readonly listeners = new Set<(kind: ListKind) => void>();
  private readonly hooked = new WeakSet<ServerConnection>();
  private readonly pendingKinds = new Set<ListKind>();
  private notifyTimer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private entries: Record<string, ServerEntry>;
  private closed = false;

  private constructor(
    private readonly options: GatewayOptions,
    entries: Record<string, ServerEntry>,
    maxRounds: number,
    eraCache: EraCache,
    private readonly approval: { prompter: Prompter; observer: HostObserver; close(): void },
  ) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.progressIntervalMs = options.progressIntervalMs ?? 5_000;
    this.entries = entries;
    this.host = new Host({
      servers: entries,
      prompter: approval.prompter,
      observer: combineObservers(approval.observer, this.tracker.observer),
      eraCache,
      maxRounds,
      // The host stops a legacy request's clock while its question is open,
      // so the human's time never counts; the agent's own timeout and
      // cancellation govern how long a call may take, this is the backstop.
      requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      ...(options.pacingDelayMs !== undefined ? { pacingDelayMs: options.pacingDelayMs } : {}),
      // Sign-ins made in the app or with `countersign auth login` are used
      // (the data folder's store). The gateway itself never starts one: the
      // agent gets "sign-in needed", never a link, a code or a token.
      auth: {
        store: new FileCredentialStore(join(options.dataDir, 'credentials')),
        allowSignIn: false,
        open: () => Promise.reject(new Error('the gateway does not open sign-in links')),
      },
    });
    this.catalog = new Catalog(this.host, (server) => this.prepare(server), this.log);
  }

  /** Read the config and settings of the data folder and get ready to serve (servers are started on first use). */
  static async open(options: GatewayOptions): Promise<Gateway> {
    const entries = options.servers ?? (await readServers(options.dataDir));
    const settings = await loadSettings(join(options.dataDir, 'settings.json'));
    const eraCache =
      options.eraCache ??
      (options.servers ? new MemoryEraCache() : await FileEraCache.open(join(options.dataDir, 'era-cache.json')));
    const approval = options.approval ?? remoteApproval(options);
    const gateway = new Gateway(options, entries, settings.maxRounds, eraCache, approval);
    gateway.host.questionTimeLimitMinutes = settings.questionTimeLimitMinutes;
    if (options.watchConfig ?? options.servers === undefined) gateway.watchConfig();
    return gateway;
  }

  /** Names of the servers exposed right now. */
  serverNames(): string[] {
    return this.host.serverNames();
  }

  /** Track an agent-facing server instance, so it hears list changes. */
  attach(server: Server): void {
    this.agents.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.agents.delete(server);
      previous?.();
    };
  }

  /** Listen for list changes (the HTTP endpoint forwards them to its subscriptions). */
  onListChanged(listener: (kind: ListKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Make sure the server is connected and its list-changed notifications
   * reach the gateway (once per connection: a restarted server is hooked again).
   */
  async prepare(name: string): Promise<void> {
    const conn = await this.host.connect(name);
    if (this.hooked.has(conn)) return;
    this.hooked.add(conn);
    const client = conn.client;
    client.setNotificationHandler('notifications/tools/list_changed', () => this.changed(name, 'tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => this.changed(name, 'prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', () => this.changed(name, 'resources'));
    conn.onClose(() => this.catalog.invalidate(name));
    if (conn.era === 'modern') {
      // 2026-07-28 delivers change notifications only on a subscriptions/listen stream.
      const caps = conn.client.getServerCapabilities() ?? {};
      const filter = {
        ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
      };
      // In the background: a server slow to acknowledge must not hold up the call or listing that connected it.
      if (Object.keys(filter).length > 0) {
        client
          .listen(filter)
          .catch((e) =>
            this.log(`countersign gateway: server "${name}" did not accept a change subscription: ${messageOf(e)}`),
          );
      }
    }
  }

  /** A server's list changed: drop the cache and tell every agent (debounced). */
  changed(server: string | undefined, kind: ListKind): void {
    if (server) this.catalog.invalidate(server, kind);
    this.pendingKinds.add(kind);
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      const kinds = [...this.pendingKinds];
      this.pendingKinds.clear();
      for (const k of kinds) this.notifyAgents(k);
    }, LIST_CHANGED_DEBOUNCE_MS);
  }

  private notifyAgents(kind: ListKind): void {
    for (const agent of this.agents) {
      const send =
        kind === 'tools'
          ? agent.sendToolListChanged()
          : kind === 'prompts'
            ? agent.sendPromptListChanged()
            : agent.sendResourceListChanged();
      send.catch(() => undefined); // an agent that is not (yet) connected misses nothing it asked for
    }
    for (const l of this.listeners) l(kind);
  }

  private watchConfig(): void {
    let timer: NodeJS.Timeout | undefined;
    try {
      this.watcher = watch(this.options.dataDir, (_event, file) => {
        if (file !== null && file !== 'servers.json') return;
        clearTimeout(timer);
        timer = setTimeout(() => void this.reload(), 200);
      });
      this.watcher.on('error', () => undefined);
      this.watcher.unref();
    } catch (e) {
      this.log(`countersign gateway: cannot watch ${this.options.dataDir} for config changes: ${messageOf(e)}`);
    }
  }

  /** Apply a changed servers.json: added, changed and removed servers, then tell the agents. */
  async reload(): Promise<void> {
    if (this.closed) return;
    let next: Record<string, ServerEntry>;
    try {
      next = await readServers(this.options.dataDir);
    } catch (e) {
      this.log(`countersign gateway: kept the previous servers: ${messageOf(e)}`);
      return;
    }
    let touched = false;
    for (const name of Object.keys(this.entries)) {
      if (!(name in next)) {
        await this.host.removeServer(name);
        this.catalog.invalidate(name);
        touched = true;
      }
    }
    for (const [name, entry] of Object.entries(next)) {
      if (JSON.stringify(this.entries[name]) === JSON.stringify(entry)) continue;
      await this.host.setServer(name, entry);
      this.catalog.invalidate(name);
      touched = true;
    }
    this.entries = next;
    if (touched) for (const kind of ['tools', 'prompts', 'resources'] as const) this.changed(undefined, kind);
  }

  /** Stop: cancel open questions, close the approval channel and every server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    clearTimeout(this.notifyTimer);
    this.approval.close();
    await this.host.close();
  }
}

/** The approval channel to the app, as the Host's prompter and observer. */
function remoteApproval(options: GatewayOptions): { prompter: Prompter; observer: HostObserver; close(): void } {
  const remote = createRemoteApproval({
    dataDir: options.dataDir,
    launcher: options.launcher ?? null,
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return { prompter: remote.prompter, observer: remote.observer, close: () => remote.client.close() };
}

/** The servers of the data folder; a missing servers.json means none (the app writes it, not the gateway). */
async function readServers(dataDir: string): Promise<Record<string, ServerEntry>> {
  const file = join(dataDir, 'servers.json');
  return (await readServerConfigFile(file)) ?? {};
}
