// The host API (shared/host-api/contract.ts) implemented over the core: one
// object that Electron's IPC, the loopback web shell and the gateway's
// approval channel all call. Every request is schema-checked here, whatever
// transport it came by.
import { join } from 'node:path';
import type { ServerSignInView } from '../../../shared/auth/types';
import {
  isHostMethodName,
  parseHostParams,
  type HostApi,
  type HostEventName,
  type HostEvents,
  type HistoryFilter,
  type HostMethodName,
  type HostParams,
  type HostResults,
  type ServerView,
  type Settings,
  type TaskView,
} from '../../../shared/host-api/contract';
import { HOST_METHOD_NAMES } from '../../../shared/host-api/names';
import { FileCredentialStore } from '../auth/credential-store';
import { signInCallContext, type SignInEvent } from '../auth/server-auth';
import { hideSecrets } from '../config/hidden-values';
import type { ServerEntry } from '../config/server-config';
import type { ServerListChange } from '../config/server-list';
import { ServersFile } from '../config/servers-file';
import { neededValues } from '../config/variables';
import { FileEraCache } from '../connection/era-cache';
import { combineObservers, type HostObserver } from '../events';
import { Host } from '../host';
import { HostError, isHostError, messageOf } from '../host-error';
import { openPrivateDir } from '../storage/private-files';
import { FileTaskStore, type TaskRecord } from '../tasks/task-store';
import { toTaskView } from '../tasks/task-view';
import { stderrLog } from '../terminal-output';
import { CallAnswers } from './call-answers';
import { Emitter } from './emitter';
import { RunningCalls } from './handlers/calls';
import type { Handler, HandlerContext, HandlerTable } from './handlers/handler-table';
import { historyHandlers } from './handlers/history';
import { questionHandlers } from './handlers/questions';
import { serverHandlers } from './handlers/servers';
import { settingsHandlers } from './handlers/settings';
import { signInHandlers } from './handlers/sign-in';
import { taskHandlers } from './handlers/tasks';
import { appHandlers } from './handlers/apps';
import { passkeyHandlers } from './handlers/passkeys';
import { Passkeys } from '../passkeys/passkeys';
import type { PasskeyGuard } from '../passkeys/passkey-guard';
import { AppSessions } from '../apps/app-sessions';
import { QueuePrompter } from './queue-prompter';
import type { HostServiceOptions } from './service-options';
import { loadSettings } from './settings-store';

export type { HistoryPort, HostServiceOptions } from './service-options';

type ServerState = Pick<ServerView, 'status' | 'era' | 'protocolVersion' | 'error' | 'needs'>;

/** Logs a refused request; injectable so tests can see it. */
export type RequestLogger = (line: string) => void;

/** The contract's methods, each a forwarder to invoke() installed below from the contract's names. */
type HostMethods = Omit<HostApi, 'on'>;

// The class and this interface merge: the forwarders are declared here and defined below, not written out.
export interface HostService extends HostMethods {}

export class HostService implements HostApi {
  readonly events = new Emitter<HostEvents>();
  private readonly prompter: QueuePrompter;
  private readonly recorder: HostObserver;
  /** The last answer of each call and task, for the outcome words of the Tools and Tasks views. */
  private readonly answers = new CallAnswers();
  private readonly host: Host;
  private readonly states = new Map<string, ServerState>();
  /** The calls the app started that still run. */
  private readonly running: RunningCalls;
  /** One handler per contract method, built once. */
  private readonly handlers: HandlerTable;
  /** Per HTTP server: sign-in needed or held (refreshed after every sign-in step and connection attempt). */
  private readonly signIns = new Map<string, ServerSignInView>();
  /** The last sign-in failure per server, in the host's own words, until the next attempt. */
  private readonly signInErrors = new Map<string, string>();
  /** Set first thing in close(): a reconnect that was waiting for an old connection to settle starts no new one. */
  private closing = false;
  log: RequestLogger = stderrLog;
  /**
   * Set by a front end that can stream a download (the web shell, the desktop app): exportHistory answers with
   * the link this returns instead of the whole export as one string.
   */
  exportLinks: ((filter: HistoryFilter, format: 'jsonl' | 'csv') => string) | undefined;
  /** The MCP Apps this host shows; a front end that can frame them sets `apps.origin` (the web shell, the desktop). */
  readonly apps: AppSessions;
  /** The data folder's passkeys, their ceremony page, and the passkey step of the gate. */
  readonly passkeys: Passkeys;

  private constructor(
    private readonly options: HostServiceOptions,
    private readonly serversFile: ServersFile,
    private settings: Settings,
    eraCache: FileEraCache,
  ) {
    this.prompter = new QueuePrompter(this.events, options.openExternal, options.linkOpening);
    this.passkeys = new Passkeys({
      dataDir: options.dataDir,
      policy: () => this.settings.passkeys,
      entry: (name) => serversFile.list.get(name),
      ceremonies: true,
      ...(options.ceremonyPort !== undefined ? { port: options.ceremonyPort } : {}),
    });
    this.recorder = combineObservers(options.history?.observer, this.answers.observer);
    this.host = new Host({
      servers: serversFile.list,
      prompter: this.prompter,
      observer: this.recorder,
      eraCache,
      maxRounds: settings.maxRounds,
      ...(options.pacingDelayMs !== undefined ? { pacingDelayMs: options.pacingDelayMs } : {}),
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      roundLimitAdvice: 'raise Settings → Round limit to allow more',
      ...(options.rendersApps ? { rendersApps: true } : {}),
      passkeys: this.passkeys.guard,
      auth: {
        store: options.credentialStore ?? new FileCredentialStore(join(options.dataDir, 'credentials')),
        // The core opens a sign-in link only after the human's consent, through the same opener (the gate).
        open: (url) => this.prompter.openSignInLink(url),
        onEvent: (e) => this.onSignInEvent(e),
        onFault: async (message) => {
          this.log(`countersign: ${message}`);
          await this.recorder.fault?.({ call: null, code: 'protocol', message, at: new Date().toISOString() });
        },
        ...(options.signInTimeoutMs !== undefined ? { callbackTimeoutMs: options.signInTimeoutMs } : {}),
      },
      // Task ids live in the data folder, so a restarted app picks its running tasks up again.
      taskStore: new FileTaskStore(options.dataDir),
    });
    this.host.tasks.onChange(({ record }) => this.events.emit('taskUpdated', this.taskView(record)));
    this.apps = new AppSessions(this.host, this.recorder, this.prompter);
    this.host.questionTimeLimitMinutes = settings.questionTimeLimitMinutes;
    for (const name of serversFile.list.names()) this.states.set(name, { status: 'idle' });
    serversFile.list.onChange((change) => this.followList(change));
    if (options.history) {
      options.history.setRedact(settings.redactHistory);
      options.history.onAppended = (seq) => this.events.emit('historyAppended', { seq });
    }
    const ctx = this.handlerContext();
    this.running = new RunningCalls(ctx, this.answers);
    this.handlers = {
      ...serverHandlers(ctx),
      ...this.running.handlers(),
      ...questionHandlers(ctx),
      ...historyHandlers(ctx),
      ...settingsHandlers(ctx),
      ...signInHandlers(ctx),
      ...taskHandlers(ctx),
      ...appHandlers(ctx),
      ...passkeyHandlers(ctx),
    };
  }

  /** What the handlers share of this service. */
  private handlerContext(): HandlerContext {
    return {
      options: this.options,
      host: this.host,
      prompter: this.prompter,
      serversFile: this.serversFile,
      events: this.events,
      settings: () => this.settings,
      setSettings: (next) => {
        this.settings = next;
      },
      exportLinks: () => this.exportLinks,
      lastAlert: () => this.lastAlert,
      serverViews: () => this.serverViews(),
      emitServers: () => this.emitServers(),
      requireServer: (name) => this.requireServer(name),
      connect: (name) => this.connect(name),
      connectQuietly: (name) => this.connectQuietly(name),
      refreshSignIn: (name) => this.refreshSignIn(name),
      signInErrors: this.signInErrors,
      taskView: (record) => this.taskView(record),
      apps: this.apps,
      passkeys: this.passkeys,
    };
  }

  /** Load config and settings from the data folder and start. */
  static async create(options: HostServiceOptions): Promise<HostService> {
    // The data folder holds servers (with their tokens), settings and the history: owner-only.
    await openPrivateDir(options.dataDir, { recursive: false });
    let service: HostService | undefined;
    const serversFile = await ServersFile.open(join(options.dataDir, 'servers.json'), {
      firstStart: options.firstStartServers ?? {},
      onProblem: (problem) => service?.events.emit('serversFileProblem', { error: problem?.message ?? null }),
      log: (line) => service?.log(`countersign: ${line}`),
    });
    const settings = await loadSettings(join(options.dataDir, 'settings.json'));
    const eraCache = await FileEraCache.open(join(options.dataDir, 'era-cache.json'));
    service = new HostService(options, serversFile, settings, eraCache);
    if (options.connectOnStart !== false) {
      for (const name of serversFile.list.names()) void service.connectQuietly(name);
      void service.resumeTasks();
    }
    if (options.watchConfig !== false) serversFile.watch();
    return service;
  }

  /** Subscribe to a host event. */
  on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Questions waiting for the human (for badges). */
  /** Stream a history export to `sink` (what an export link serves). */
  streamHistoryExport(
    filter: HistoryFilter,
    format: 'jsonl' | 'csv',
    sink: (chunk: string) => void | Promise<void>,
  ): Promise<number> {
    const history = this.options.history;
    if (!history?.exportTo) return Promise.reject(new HostError('config', 'this host keeps no history to export'));
    return history.exportTo(filter, format, sink);
  }

  pendingQuestionCount(): number {
    return this.prompter.size;
  }

  /** The prompter, for the gateway's approval channel. */
  get questions(): QueuePrompter {
    return this.prompter;
  }

  /**
   * The observer the core reports to (the history), for calls a gateway runs: the approval channel records through it.
   */
  get observer(): HostObserver {
    return this.recorder;
  }

  /**
   * Whether questions from `server` are muted this session (the approval channel applies it to gateway questions too).
   */
  isMuted(server: string): boolean {
    return this.host.isMuted(server);
  }

  /** The passkey step of the gate (the approval channel applies it to gateway questions too). */
  get passkeyGuard(): PasskeyGuard {
    return this.passkeys.guard;
  }

  /** Settings → Question time limit now (the approval channel applies it to gateway questions too). */
  questionTimeLimitMinutes(): number {
    return this.settings.questionTimeLimitMinutes;
  }

  /** The approval channel's alerts (a replaced socket): every window shows them as a banner. */
  alert(alert: HostEvents['appAlert']): void {
    this.lastAlert = alert;
    this.events.emit('appAlert', alert);
  }

  /** The latest approval-channel alert, told again to a front end that connects later. */
  private lastAlert: HostEvents['appAlert'] | undefined;

  /**
   * Run one API request from any transport: unknown methods and malformed
   * params are refused with a clear error (and logged), nothing else runs.
   * `place` names the window or tab the request came from, as the transport
   * knows its connection ("window 1", "tab 2"); the history keeps it with
   * the human's answers.
   */
  invoke<M extends HostMethodName>(method: M, params: HostParams<M>, place?: string): Promise<HostResults[M]>;
  /** The same, for what a transport received (anything; refused unless it fits the contract). */
  invoke(method: unknown, params: unknown, place?: string): Promise<unknown>;
  async invoke(method: unknown, params: unknown, place?: string): Promise<unknown> {
    if (!isHostMethodName(method)) {
      const msg = `unknown host API method ${JSON.stringify(method)}`;
      this.log(`countersign: refused request: ${msg}`);
      throw new HostError('protocol', msg);
    }
    const parsed = parseHostParams(method, params);
    if (!parsed.ok) {
      this.log(`countersign: refused request: ${parsed.error}`);
      throw new HostError('protocol', parsed.error, { method, ...parsed.details });
    }
    return this.dispatch(method, parsed.value, place);
  }

  private dispatch<M extends HostMethodName>(
    method: M,
    params: HostParams<M>,
    place: string | undefined,
  ): Promise<HostResults[M]> {
    return (this.handlers[method] as Handler<M>)(params, place);
  }

  /** Why the last hand edit of servers.json was not loaded (null: the list matches the file). */
  get serversFileProblem(): string | null {
    return this.serversFile.problem?.message ?? null;
  }

  /** Load servers.json now if it changed (the watcher does this by itself). */
  async reloadServers(): Promise<void> {
    await this.serversFile.reload();
  }

  /** The server list changed (an API call here, or the file edited by hand): follow it and tell the front ends. */
  private followList(change: ServerListChange): void {
    for (const name of change.removed) this.states.delete(name);
    for (const name of [...change.added, ...change.changed]) {
      this.states.set(name, { status: 'idle' });
      // After the old connection closed (the Host closes it when the entry changes).
      void this.host.settled(name).then(() => {
        if (this.serversFile.list.has(name)) void this.connectQuietly(name);
      });
    }
    this.emitServers();
  }

  private serverViews(): ServerView[] {
    return Object.entries(this.serversFile.list.snapshot()).map(([name, entry]) => {
      const signIn = this.signIns.get(name);
      const error = this.signInErrors.get(name);
      return {
        name,
        entry: hideSecrets(entry),
        muted: this.host.isMuted(name),
        ...(this.states.get(name) ?? { status: 'idle' as const }),
        ...(signIn ? { signIn: error ? { ...signIn, error } : signIn } : {}),
      };
    });
  }

  /** Re-read a server's sign-in state (no secret leaves: status() carries none). */
  private async refreshSignIn(name: string): Promise<void> {
    const auth = this.host.serverAuth(name);
    if (!auth) {
      this.signIns.delete(name);
      return;
    }
    try {
      const status = await auth.status();
      this.signIns.set(name, {
        needed: auth.challenged && !status.signedIn,
        signedIn: status.signedIn,
        storage: status.storage,
        ...(status.storageEncrypted !== undefined ? { storageEncrypted: status.storageEncrypted } : {}),
        ...(status.storageDetails ? { storageDetails: status.storageDetails } : {}),
        ...(status.boundToKey ? { boundToKey: true } : {}),
        ...(status.issuer ? { issuer: status.issuer } : {}),
        ...(status.scopes ? { scopes: status.scopes } : {}),
        ...(status.expiresAt ? { expiresAt: status.expiresAt } : {}),
        ...(status.renewable !== undefined ? { renewable: status.renewable } : {}),
      });
    } catch (e) {
      this.log(`countersign: could not read the sign-in state of "${name}": ${messageOf(e)}`);
    }
  }

  /** A gateway's sign-in step, kept like the app's own (the approval channel's ApprovalHost.recordSignIn). */
  recordSignIn(e: SignInEvent): Promise<void> {
    return this.onSignInEvent(e);
  }

  private async onSignInEvent(e: SignInEvent): Promise<void> {
    if (e.phase === 'failed' && e.error) this.signInErrors.set(e.server, e.error);
    if (e.phase === 'asked') this.signInErrors.delete(e.server);
    try {
      await this.options.history?.recordSignIn?.(e);
    } catch (err) {
      this.log(`countersign: could not record a sign-in step in the history: ${messageOf(err)}`);
    }
    if (e.phase !== 'asked' && e.phase !== 'opened') {
      await this.refreshSignIn(e.server);
      this.emitServers();
    }
  }

  private emitServers(): ServerView[] {
    const views = this.serverViews();
    this.events.emit('serversChanged', views);
    return views;
  }

  private requireServer(name: string): ServerEntry {
    const entry = this.serversFile.list.get(name);
    if (!entry) throw new HostError('config', `no server named "${name}" is configured`);
    return entry;
  }

  private setState(name: string, state: ServerState): void {
    this.states.set(name, state);
    this.emitServers();
  }

  /** Connect in the background (start, after edits): never asks the human; a needed sign-in shows in the view. */
  private async connectQuietly(name: string): Promise<void> {
    if (this.closing) return;
    await signInCallContext
      .run({ method: 'connect', name, mayAsk: false }, () => this.connect(name))
      .catch(() => undefined);
  }

  private async connect(name: string) {
    this.setState(name, { status: 'connecting' });
    try {
      const conn = await this.host.connect(name);
      await this.refreshSignIn(name);
      this.setState(name, { status: 'connected', era: conn.era, protocolVersion: conn.protocolVersion });
      conn.onClose((reason) => {
        const error = reason ? `the server ${reason}` : 'the server closed the connection';
        if (this.serversFile.list.has(name)) this.setState(name, { status: 'error', error });
      });
      return conn;
    } catch (e) {
      await this.refreshSignIn(name);
      // A server that wants a sign-in is not broken: the view shows that state and a Sign in button.
      if (isHostError(e, 'sign-in-needed') || this.signIns.get(name)?.needed) this.setState(name, { status: 'idle' });
      else {
        const needs = neededValues(e);
        this.setState(name, { status: 'error', error: messageOf(e), ...(needs ? { needs } : {}) });
      }
      throw e;
    }
  }

  private taskView(record: TaskRecord): TaskView {
    return toTaskView(record, this.host.tasks.isFollowing(record.taskId), this.answers.forTask(record.taskId));
  }

  /**
   * Follow again the tasks a previous run left running (a question that was
   * waiting is asked again). Their outcome shows in the Tasks view and the
   * history; a task that cannot be picked up is closed there with a note.
   */
  async resumeTasks(): Promise<void> {
    const resumed = await this.host.tasks.resume().catch((error: unknown) => {
      this.log(`countersign: could not pick up the tasks of the last run: ${messageOf(error)}`);
      return [];
    });
    await Promise.all(resumed.map((r) => r.done.catch(() => undefined)));
  }

  /** How many calls are running (ended ones are not kept). */
  get runningCalls(): number {
    return this.running.size;
  }

  /** Stop everything: cancel open questions and calls, close connections and the journal. */
  async close(): Promise<void> {
    this.closing = true;
    this.running.abortAll(new HostError('cancelled', 'the host is shutting down'));
    this.prompter.cancelAll();
    this.apps.closeAll();
    await this.passkeys.close();
    this.serversFile.close();
    await this.host.close();
    await this.options.history?.close();
  }
}

// The typed HostApi, one method per contract method, made from the contract's list of names (as VS Code's
// ProxyChannel makes a client from a service's interface). Each goes through invoke(), so a direct caller is
// checked exactly like a transport. Defined like a class method: on the prototype, not enumerable.
for (const method of HOST_METHOD_NAMES) {
  Object.defineProperty(HostService.prototype, method, {
    value: function (this: HostService, params: unknown): Promise<unknown> {
      return this.invoke(method, params);
    },
    writable: true,
    configurable: true,
  });
}
