// The agent gateway: one MCP server for any agent, in front of every
// configured server. Calls run on a core Host whose prompter is the approval
// channel, so each question a server asks goes to the human in the
// Countersign app, and the agent only ever gets the final result. The
// agent-facing protocol lives in agent-server.ts; this class owns the shared
// state: the Host, the catalogue, list-changed fan-out and config reloads.
import type { SignInEvent } from '../core/auth/server-auth';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { FileCredentialStore } from '../core/auth/credential-store';
import type { Server } from '@modelcontextprotocol/server';
import { createRemoteApproval } from '../core/approval/remote-approval';
import type { AppLauncher } from '../core/approval/approval-client';
import type { Approver } from '../core/approval/shared-folder';
import type { ServerEntry } from '../core/config/server-config';
import { ServerList, type ServerListChange } from '../core/config/server-list';
import { ServersFile } from '../core/config/servers-file';
import { FileEraCache, MemoryEraCache, type EraCache } from '../core/connection/era-cache';
import type { ServerConnection } from '../core/connection/server-connection';
import { combineObservers, type HostObserver } from '../core/events';
import { Host } from '../core/host';
import { HostError, messageOf } from '../core/host-error';
import type { SignInPrompter } from '../core/prompter/prompter';
import type { QuestionAsker, QuestionAskerDeps } from '../core/prompter/question-gate';
import { loadSettings } from '../core/service/settings-store';
import { AgentTasks, LegacyTaskHandles } from './agent-tasks';
import { CallTracker } from './call-tracker';
import { HeldCalls } from './held-calls';
import { Catalog, type ListKind } from './catalog';
import { stderrLog } from '../core/terminal-output';

export interface GatewayOptions {
  /** The data folder shared with the app: servers.json, settings, the approval channel. */
  dataDir: string;
  /** Servers to expose instead of DIR/servers.json (tests, benchmarks). */
  servers?: Record<string, ServerEntry>;
  /** How questions reach the human; default: the approval channel to the app. */
  approval?: GatewayApproval;
  /** Starts the app when a question arrives and none runs; null: never. */
  launcher?: AppLauncher | null;
  /** Another user's shared approval folder, and that user: see core/approval/shared-folder.ts. */
  approvalDir?: string;
  approver?: Approver;
  /** How long to wait for a started app. */
  startTimeoutMs?: number;
  /** Progress notifications to the agent while a call waits, when it sent a progressToken. Default 5 s. */
  progressIntervalMs?: number;
  /**
   * How long one request of a 2026-07-28 agent (without tasks) may wait once
   * the human has been asked, before the gateway ends it with a state-only
   * input_required result that the agent repeats (held-calls.ts). Default
   * 50 s, under the 60 s most agents allow a request; 0: never.
   */
  keepAliveMs?: number;
  /** How long a held call waits for the agent's repeat before it is cancelled. Default 30 s. */
  keepAliveGraceMs?: number;
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

/** Under the 60 s the SDK client and MCP Inspector give a request (docs/agents.md). */
const KEEP_ALIVE_MS = 50_000;
/** An agent repeats a state-only request after 0.25 s (SDK 2.x) or at once (Inspector). */
const KEEP_ALIVE_GRACE_MS = 30_000;

/** Debounce for list-changed notifications to agents (a burst of upstream changes becomes one). */
const LIST_CHANGED_DEBOUNCE_MS = 50;

export class Gateway {
  readonly host: Host;
  readonly catalog: Catalog;
  readonly tracker = new CallTracker();
  /** Task handles given to agents that declare tasks. */
  readonly agentTasks = new AgentTasks();
  /** 2025-11-25 CreateTaskResults on their way out (see LegacyTaskHandles). */
  readonly legacyTaskHandles = new LegacyTaskHandles();
  /** Identifies this gateway process in agent labels ("claude-code 2.1.0 (stdio-1a2b3c)"). */
  readonly runId = randomBytes(3).toString('hex');
  readonly progressIntervalMs: number;
  /** See GatewayOptions.keepAliveMs. */
  readonly keepAliveMs: number;
  /** Calls of 2026-07-28 agents between two of their requests. */
  readonly heldCalls: HeldCalls;
  readonly log: (line: string) => void;
  private readonly agents = new Set<Server>();
  private readonly listeners = new Set<(kind: ListKind) => void>();
  private readonly hooked = new WeakSet<ServerConnection>();
  private readonly pendingKinds = new Set<ListKind>();
  private notifyTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly options: GatewayOptions,
    servers: ServerList,
    /** servers.json of the data folder (undefined when fixed servers were given). */
    private readonly serversFile: ServersFile | undefined,
    maxRounds: number,
    eraCache: EraCache,
    private readonly approval: GatewayApproval,
  ) {
    this.log = options.log ?? stderrLog;
    this.progressIntervalMs = options.progressIntervalMs ?? 5_000;
    this.keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
    this.heldCalls = new HeldCalls(options.keepAliveGraceMs ?? KEEP_ALIVE_GRACE_MS);
    this.host = new Host({
      servers,
      prompter: approval.prompter,
      questions: approval.questions,
      observer: combineObservers(approval.observer, this.tracker.observer),
      eraCache,
      maxRounds,
      // The host stops a legacy request's clock while its question is open,
      // so the human's time never counts; the agent's own timeout and
      // cancellation govern how long a call may take, this is the backstop.
      requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      ...(options.pacingDelayMs !== undefined ? { pacingDelayMs: options.pacingDelayMs } : {}),
      // Sign-ins made in the app or with `countersign auth login` are used
      // (the data folder's store). A server that needs a new one is signed in
      // through the app: its sign-in dialog, its open-external gate. The agent
      // gets only the result, "declined" or "sign-in needed", never a link, a
      // code or a token.
      auth: {
        store: new FileCredentialStore(join(options.dataDir, 'credentials')),
        allowSignIn: approval.openSignIn !== undefined,
        open: (url) =>
          approval.openSignIn
            ? approval.openSignIn(url)
            : Promise.reject(new Error('the gateway does not open sign-in links')),
        ...(approval.signInEvent ? { onEvent: approval.signInEvent } : {}),
        onFault: (message) => this.log(`countersign gateway: ${message}`),
      },
    });
    this.catalog = new Catalog(this.host, (server) => this.prepare(server), this.log);
    servers.onChange((change) => this.followList(change));
  }

  /** Read the config and settings of the data folder and get ready to serve (servers are started on first use). */
  static async open(options: GatewayOptions): Promise<Gateway> {
    // A missing servers.json means no servers: the app writes it, not the gateway.
    const log = options.log ?? stderrLog;
    const serversFile = options.servers
      ? undefined
      : await ServersFile.open(join(options.dataDir, 'servers.json'), {
          log: (line) => log(`countersign gateway: ${line}`),
        });
    const servers = serversFile?.list ?? new ServerList(options.servers);
    const settings = await loadSettings(join(options.dataDir, 'settings.json'));
    const eraCache =
      options.eraCache ??
      (options.servers ? new MemoryEraCache() : await FileEraCache.open(join(options.dataDir, 'era-cache.json')));
    const approval = options.approval ?? remoteApproval(options);
    const gateway = new Gateway(options, servers, serversFile, settings.maxRounds, eraCache, approval);
    gateway.host.questionTimeLimitMinutes = settings.questionTimeLimitMinutes;
    if (options.watchConfig ?? options.servers === undefined) serversFile?.watch();
    return gateway;
  }

  /** Names of the servers exposed right now. */
  serverNames(): string[] {
    return this.host.serverNames();
  }

  /** True when `name` is one of the servers (without making the list). */
  hasServer(name: string): boolean {
    return this.host.hasServer(name);
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
  /** True when the server is connected and prepare() has hooked that connection (nothing to wait for). */
  prepared(name: string): boolean {
    const conn = this.host.connectedNow(name);
    return conn !== undefined && this.hooked.has(conn);
  }

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

  /** Load a changed servers.json now (the watcher does this by itself); a malformed file keeps the previous servers. */
  async reload(): Promise<void> {
    if (!this.closed) await this.serversFile?.reload();
  }

  /** The server list changed: the Host reconnects what changed; drop their catalogue and tell the agents. */
  private followList(change: ServerListChange): void {
    for (const name of [...change.added, ...change.changed, ...change.removed]) this.catalog.invalidate(name);
    for (const kind of ['tools', 'prompts', 'resources'] as const) this.changed(undefined, kind);
  }

  /** Stop: cancel open questions, close the approval channel and every server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.serversFile?.close();
    clearTimeout(this.notifyTimer);
    this.agentTasks.close();
    this.heldCalls.close(new HostError('cancelled', 'the gateway closed'));
    this.approval.close();
    await this.host.close();
  }
}

/** How a gateway's questions and sign-ins reach the human, the Host's observer, and the opener of sign-in links. */
export interface GatewayApproval {
  /** HostOptions.questions: the app's gate builds and checks every question. */
  questions: (deps: QuestionAskerDeps) => QuestionAsker;
  /** Sign-in questions. */
  prompter: SignInPrompter;
  observer: HostObserver;
  close(): void;
  /** Absent: this gateway cannot sign in (the agent gets "sign-in needed"). */
  openSignIn?: (url: string) => Promise<void>;
  /** A sign-in step of the gateway's own sign-ins: how an opened one ended goes to the app's history. */
  signInEvent?: (event: SignInEvent) => void;
}

/** The approval channel to the app, as the Host's questions, sign-ins and observer. */
function remoteApproval(options: GatewayOptions): GatewayApproval {
  const remote = createRemoteApproval({
    dataDir: options.dataDir,
    launcher: options.launcher ?? null,
    ...(options.approvalDir !== undefined ? { approvalDir: options.approvalDir } : {}),
    ...(options.approver ? { approver: options.approver } : {}),
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    questions: remote.questions,
    prompter: remote.signIns.prompter,
    observer: remote.observer,
    close: () => remote.client.close(),
    openSignIn: remote.signIns.open,
    signInEvent: remote.signIns.event,
  };
}
