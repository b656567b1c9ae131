// The host API (shared/host-api/contract.ts) implemented over the core: one
// object that Electron's IPC, the loopback web shell and the gateway's
// approval channel all call. Every request is schema-checked here, whatever
// transport it came by.
import { hideSecrets, restoreHiddenSecrets } from '../config/hidden-values';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  isHostMethodName,
  parseHostParams,
  type CallView,
  type CatalogView,
  type HistoryFilter,
  type HostEventName,
  type HostApi,
  type HostEvents,
  type HostMethodName,
  type HostParams,
  type HostResults,
  type ServerView,
  type Settings,
  type TaskView,
} from '../../../shared/host-api/contract';
import type { ServerSignInView } from '../../../shared/auth/types';
import { FileCredentialStore, type CredentialStore } from '../auth/credential-store';
import { signInCallContext, type SignInEvent } from '../auth/server-auth';
import { parseServerConfig, type ServerEntry } from '../config/server-config';
import type { ServerListChange } from '../config/server-list';
import { ServersFile } from '../config/servers-file';
import { FileEraCache } from '../connection/era-cache';
import { combineObservers, type HostObserver } from '../events';
import { Host } from '../host';
import { HostError, isHostError, messageOf } from '../host-error';
import { neededValues } from '../config/variables';
import { FileTaskStore, type TaskRecord } from '../tasks/task-store';
import { CallAnswers } from './call-answers';
import { toTaskView } from '../tasks/task-view';
import { Emitter } from './emitter';
import { exportFilename } from './export-filename';
import { fillInputs, importPlan, importServers } from './import-servers';
import { openPrivateDir } from '../storage/private-files';
import { QueuePrompter, type LinkOpening, type OpenExternal } from './queue-prompter';
import { loadSettings, saveSettings } from './settings-store';
import { stderrLog } from '../terminal-output';
import { AppSessions, toolNamesApp } from '../apps/app-sessions';

/** What the service needs from the history journal. */
export interface HistoryPort {
  observer: HostObserver;
  query(filter: HistoryFilter): Promise<HostResults['queryHistory']>;
  export(filter: HistoryFilter, format: 'jsonl' | 'csv'): Promise<HostResults['exportHistory']>;
  /** Stream the export in constant memory; resolves with the number of items written. */
  exportTo?(
    filter: HistoryFilter,
    format: 'jsonl' | 'csv',
    sink: (chunk: string) => void | Promise<void>,
  ): Promise<number>;
  setRedact(redact: boolean): void;
  /** Check the whole hash chain, read-only. */
  verify?(): Promise<HostResults['verifyHistory']>;
  /** Records a sign-in step (asked, opened, completed, cancelled, failed, signed out). Never a token or code. */
  recordSignIn?(event: SignInEvent): Promise<void>;
  /** Set by the service: called with the seq of every appended entry. */
  onAppended?: (seq: number) => void;
  close(): Promise<void>;
}

export interface HostServiceOptions {
  dataDir: string;
  openExternal: OpenExternal;
  /** Where consented links open (default the system browser; the web shell: the person's tab). */
  linkOpening?: LinkOpening;
  history?: HistoryPort;
  /** Servers written to a missing servers.json on first start (the demo server). */
  firstStartServers?: Record<string, ServerEntry>;
  /** Connect to every server at start (the app); tests may turn it off. */
  connectOnStart?: boolean;
  /** Pause before re-sending a state-only round. */
  pacingDelayMs?: number;
  /** The server's time per request, never counting a human deciding (default: the SDK's 60 s). */
  requestTimeoutMs?: number;
  /** Follow hand edits of servers.json while running (default true). */
  watchConfig?: boolean;
  /** Where sign-ins are kept (default: the data folder's credential store, shared with the CLI and the gateway). */
  credentialStore?: CredentialStore;
  /** How long a sign-in waits for the browser once it was opened (default 5 min). */
  signInTimeoutMs?: number;
  /** The front end frames MCP Apps: the ui extension is declared to servers (never for the CLI). */
  rendersApps?: boolean;
}

type ServerState = Pick<ServerView, 'status' | 'era' | 'protocolVersion' | 'error' | 'needs'>;

/** Logs a refused request; injectable so tests can see it. */
export type RequestLogger = (line: string) => void;

export class HostService implements HostApi {
  readonly events = new Emitter<HostEvents>();
  private readonly prompter: QueuePrompter;
  private readonly recorder: HostObserver;
  /** The last answer of each call and task, for the outcome words of the Tools and Tasks views. */
  private readonly answers = new CallAnswers();
  private readonly host: Host;
  private readonly states = new Map<string, ServerState>();
  /** Calls still running. An ended call is dropped at once: its result went out in the callUpdated event. */
  private readonly calls = new Map<string, CallView>();
  private readonly calling = new Map<string, AbortController>();
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
  /** The MCP Apps this host shows; a front end that can frame them sets `apps.origin` (the web shell). */
  readonly apps: AppSessions;

  private constructor(
    private readonly options: HostServiceOptions,
    private readonly serversFile: ServersFile,
    private settings: Settings,
    eraCache: FileEraCache,
  ) {
    this.prompter = new QueuePrompter(this.events, options.openExternal, options.linkOpening);
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
    this.apps = new AppSessions(this.host, this.recorder);
    this.host.questionTimeLimitMinutes = settings.questionTimeLimitMinutes;
    for (const name of serversFile.list.names()) this.states.set(name, { status: 'idle' });
    serversFile.list.onChange((change) => this.followList(change));
    if (options.history) {
      options.history.setRedact(settings.redactHistory);
      options.history.onAppended = (seq) => this.events.emit('historyAppended', { seq });
    }
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

  // The typed HostApi, one method per contract method. Each goes through
  // invoke(), so a direct caller is checked exactly like a transport.
  listServers(params: HostParams<'listServers'>): Promise<HostResults['listServers']> {
    return this.invoke('listServers', params);
  }
  addServer(params: HostParams<'addServer'>): Promise<HostResults['addServer']> {
    return this.invoke('addServer', params);
  }
  updateServer(params: HostParams<'updateServer'>): Promise<HostResults['updateServer']> {
    return this.invoke('updateServer', params);
  }
  removeServer(params: HostParams<'removeServer'>): Promise<HostResults['removeServer']> {
    return this.invoke('removeServer', params);
  }
  importServers(params: HostParams<'importServers'>): Promise<HostResults['importServers']> {
    return this.invoke('importServers', params);
  }
  reconnectServer(params: HostParams<'reconnectServer'>): Promise<HostResults['reconnectServer']> {
    return this.invoke('reconnectServer', params);
  }
  listCatalog(params: HostParams<'listCatalog'>): Promise<HostResults['listCatalog']> {
    return this.invoke('listCatalog', params);
  }
  callTool(params: HostParams<'callTool'>): Promise<HostResults['callTool']> {
    return this.invoke('callTool', params);
  }
  cancelCall(params: HostParams<'cancelCall'>): Promise<HostResults['cancelCall']> {
    return this.invoke('cancelCall', params);
  }
  listQuestions(params: HostParams<'listQuestions'>): Promise<HostResults['listQuestions']> {
    return this.invoke('listQuestions', params);
  }
  listSignIns(params: HostParams<'listSignIns'>): Promise<HostResults['listSignIns']> {
    return this.invoke('listSignIns', params);
  }
  answerQuestion(params: HostParams<'answerQuestion'>): Promise<HostResults['answerQuestion']> {
    return this.invoke('answerQuestion', params);
  }
  openQuestionUrl(params: HostParams<'openQuestionUrl'>): Promise<HostResults['openQuestionUrl']> {
    return this.invoke('openQuestionUrl', params);
  }
  muteServer(params: HostParams<'muteServer'>): Promise<HostResults['muteServer']> {
    return this.invoke('muteServer', params);
  }
  queryHistory(params: HostParams<'queryHistory'>): Promise<HostResults['queryHistory']> {
    return this.invoke('queryHistory', params);
  }
  exportHistory(params: HostParams<'exportHistory'>): Promise<HostResults['exportHistory']> {
    return this.invoke('exportHistory', params);
  }
  verifyHistory(params: HostParams<'verifyHistory'>): Promise<HostResults['verifyHistory']> {
    return this.invoke('verifyHistory', params);
  }
  getSettings(params: HostParams<'getSettings'>): Promise<HostResults['getSettings']> {
    return this.invoke('getSettings', params);
  }
  updateSettings(params: HostParams<'updateSettings'>): Promise<HostResults['updateSettings']> {
    return this.invoke('updateSettings', params);
  }
  signIn(params: HostParams<'signIn'>): Promise<HostResults['signIn']> {
    return this.invoke('signIn', params);
  }
  signOut(params: HostParams<'signOut'>): Promise<HostResults['signOut']> {
    return this.invoke('signOut', params);
  }
  listTasks(params: HostParams<'listTasks'>): Promise<HostResults['listTasks']> {
    return this.invoke('listTasks', params);
  }
  cancelTask(params: HostParams<'cancelTask'>): Promise<HostResults['cancelTask']> {
    return this.invoke('cancelTask', params);
  }
  openApp(params: HostParams<'openApp'>): Promise<HostResults['openApp']> {
    return this.invoke('openApp', params);
  }
  callAppTool(params: HostParams<'callAppTool'>): Promise<HostResults['callAppTool']> {
    return this.invoke('callAppTool', params);
  }
  recordAppEvent(params: HostParams<'recordAppEvent'>): Promise<HostResults['recordAppEvent']> {
    return this.invoke('recordAppEvent', params);
  }
  closeApp(params: HostParams<'closeApp'>): Promise<HostResults['closeApp']> {
    return this.invoke('closeApp', params);
  }

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
    const handlers: { [K in HostMethodName]: (p: HostParams<K>) => Promise<HostResults[K]> } = {
      listServers: async () => {
        // A front end that connects later (a reloaded web page) hears of a standing file problem too.
        const problem = this.serversFileProblem;
        if (problem) this.events.emit('serversFileProblem', { error: problem });
        // The banner shows the latest alert, so telling it again changes nothing where it is shown.
        if (this.lastAlert) this.events.emit('appAlert', this.lastAlert);
        return this.serverViews();
      },
      addServer: (p) => this.putServer(p.name, p.entry, false),
      updateServer: (p) => this.putServer(p.name, p.entry, true),
      removeServer: (p) => this.dropServer(p.name),
      importServers: (p) => this.importServerText(p),
      reconnectServer: (p) => this.reconnect(p.name),
      listCatalog: (p) => this.catalog(p.server),
      callTool: async (p) => ({ callId: this.startCall(p.server, p.tool, p.args) }),
      cancelCall: async (p) => ({ cancelled: this.cancelRunningCall(p.callId) }),
      listQuestions: async () => this.prompter.list(),
      listSignIns: async () => this.prompter.listSignIns(),
      answerQuestion: async (p) => {
        this.prompter.answer(p.questionId, p.answer, place);
        return { accepted: true };
      },
      openQuestionUrl: (p) => this.prompter.openUrl(p.questionId),
      muteServer: async (p) => {
        this.requireServer(p.server);
        this.host.setMuted(p.server, p.muted);
        return this.emitServers();
      },
      queryHistory: (p) =>
        this.options.history
          ? this.options.history.query(p)
          : Promise.resolve({ total: 0, complete: true, entries: [] }),
      exportHistory: async (p) => {
        if (this.exportLinks && this.options.history?.exportTo) {
          return { filename: exportFilename(p.format), url: this.exportLinks(p.filter, p.format) };
        }
        return this.options.history
          ? this.options.history.export(p.filter, p.format)
          : { data: '', filename: exportFilename(p.format) };
      },
      verifyHistory: async () => (await this.options.history?.verify?.()) ?? { ok: true, entries: 0 },
      getSettings: async () => this.settings,
      updateSettings: (p) => this.applySettings(p),
      signIn: async (p) => this.startSignIn(p.server, p.scopes),
      signOut: (p) => this.forgetSignIn(p.server),
      listTasks: async () => (await this.host.tasks.list()).map((r) => this.taskView(r)),
      cancelTask: async (p) => {
        const record = await this.host.tasks.cancel(p.taskId, this.cancelledBy(p, place));
        return this.taskView(record);
      },
      openApp: async (p) => ({ app: await this.apps.openFor(p.server, p.tool, p.callId) }),
      callAppTool: async (p) => ({ result: await this.apps.callTool(p.appId, p.tool, p.args) }),
      recordAppEvent: async (p) => ({ recorded: await this.apps.record(p.appId, p.event, p.text) }),
      closeApp: async (p) => ({ closed: this.apps.close(p.appId) }),
    };
    return (handlers[method] as (p: HostParams<M>) => Promise<HostResults[M]>)(params);
  }

  /** Why the last hand edit of servers.json was not loaded (null: the list matches the file). */
  get serversFileProblem(): string | null {
    return this.serversFile.problem?.message ?? null;
  }

  /**
   * Who cancels a task, for its questions' history: from a question's dialog
   * ("Cancel task"), only a question of that very task that still waits; from
   * the Tasks view, the human too, with no question of their own.
   */
  private cancelledBy(p: HostParams<'cancelTask'>, place?: string): { reason: string; questionId?: string } {
    const where = place ? ` (${place})` : '';
    if (p.questionId === undefined) return { reason: `the user cancelled the task in Countersign${where}` };
    const question = this.prompter.list().find((q) => q.id === p.questionId);
    if (!question || question.origin.task?.taskId !== p.taskId)
      throw new HostError(
        'invalid-answer',
        question
          ? `question ${p.questionId} is not a question of task ${p.taskId}; nothing was cancelled`
          : `question ${p.questionId} is not waiting any more (answered, withdrawn or unknown); nothing was cancelled`,
      );
    const short = p.taskId.length > 8 ? `${p.taskId.slice(0, 8)}…` : p.taskId;
    return {
      reason: `the user cancelled task ${short} from its question ("Cancel task")${where}`,
      questionId: p.questionId,
    };
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

  /**
   * Sign in from the Servers view: the sign-in dialog joins the queue and
   * this returns at once; the outcome shows in the server's view (signed in,
   * or the failure in the host's words).
   */
  private startSignIn(server: string, scopes: string[] | undefined): ServerView[] {
    this.requireServer(server);
    const auth = this.host.serverAuth(server);
    if (!auth) throw new HostError('config', `server "${server}" is not an HTTP server that signs in with a browser`);
    this.signInErrors.delete(server);
    void auth.login(scopes).then(
      async () => {
        // The new token is used from the next request; reconnect so the view shows the server live.
        await this.host.disconnect(server);
        await this.connectQuietly(server);
      },
      async (e) => {
        if (!isHostError(e, 'auth') || e.details?.reason !== 'declined') this.signInErrors.set(server, messageOf(e));
        await this.refreshSignIn(server);
        this.emitServers();
      },
    );
    return this.serverViews();
  }

  private async forgetSignIn(server: string): Promise<HostResults['signOut']> {
    this.requireServer(server);
    const auth = this.host.serverAuth(server);
    if (!auth) throw new HostError('config', `server "${server}" is not an HTTP server that signs in with a browser`);
    const outcome = await auth.signOut();
    this.signInErrors.delete(server);
    // The open connection still holds the old token: close it; the next use finds the server wants a sign-in.
    await this.host.disconnect(server);
    await this.connectQuietly(server);
    return { servers: this.serverViews(), ...outcome };
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

  private async putServer(name: string, entry: ServerEntry, mustExist: boolean): Promise<ServerView[]> {
    // Checked against the file as it is on disk now, so a server added or removed by hand counts.
    await this.serversFile.update((raw, current) => {
      if (mustExist && !current[name]) throw new HostError('config', `no server named "${name}" is configured`);
      if (!mustExist && current[name])
        throw new HostError('config', `a server named "${name}" already exists`, {
          server: name,
          field: 'name',
          problem: 'already exists',
        });
      // Secrets were shown hidden (hideSecrets): a value sent back hidden keeps what is stored.
      const restored = restoreHiddenSecrets(name, entry, mustExist ? current[name] : undefined);
      // Re-validate with the config rules (the contract schema checks shape only).
      const checked = parseServerConfig({ mcpServers: { [name]: restored } })[name]!;
      raw[name] = mustExist ? { ...keptOnUpdate(raw[name], checked), ...checked } : checked;
    });
    return this.serverViews();
  }

  private async dropServer(name: string): Promise<ServerView[]> {
    this.requireServer(name);
    await this.serversFile.update((raw, current) => {
      if (!current[name]) throw new HostError('config', `no server named "${name}" is configured`);
      delete raw[name];
    });
    return this.serverViews();
  }

  /** Plan an import (dry run: nothing written, nothing started), or write the servers the person agreed to. */
  private async importServerText(p: HostParams<'importServers'>): Promise<HostResults['importServers']> {
    const read = (existing: ReadonlySet<string>) => {
      const outcome = importServers(p.json, existing, p.fileName);
      const picked = Object.fromEntries(
        Object.entries(outcome.entries).filter(([n]) => !p.names || p.names.includes(n)),
      );
      // The plan goes back to the front end: it is made from the entries as written, before the typed values
      // are filled in, so a value typed for an input in `args` or a URL never travels back.
      return { outcome, chosen: fillInputs(picked, p.inputs ?? {}, outcome.inputs), plan: importPlan(picked) };
    };
    if (p.dryRun) {
      const { outcome, plan } = read(new Set(this.serversFile.list.names()));
      return { imported: [], skipped: outcome.skipped, plan, inputs: outcome.inputs };
    }
    let result: ReturnType<typeof read> | undefined;
    await this.serversFile.update((raw, current) => {
      result = read(new Set(Object.keys(current)));
      Object.assign(raw, result.chosen);
    });
    const { outcome, chosen, plan } = result!;
    return { imported: Object.keys(chosen), skipped: outcome.skipped, plan, inputs: outcome.inputs };
  }

  private async reconnect(name: string): Promise<ServerView> {
    this.requireServer(name);
    await this.host.disconnect(name);
    // Reconnect never asks for a sign-in: the view's Sign in button does.
    await this.connectQuietly(name);
    return this.serverViews().find((v) => v.name === name)!;
  }

  private async catalog(server: string): Promise<CatalogView> {
    this.requireServer(server);
    const conn = await this.connect(server);
    const caps = conn.client.getServerCapabilities() ?? {};
    const [tools, prompts, resources] = await Promise.all([
      // The host's own listing: it remembers each tool's annotations for the dialogs.
      caps.tools ? this.host.listTools(server) : [],
      caps.prompts ? conn.client.listPrompts().then((r) => r.prompts) : [],
      caps.resources ? conn.client.listResources().then((r) => r.resources) : [],
    ]);
    return {
      tools: tools.map((t) => ({
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema,
        // Only where a front end can frame apps (the web shell sets apps.origin); elsewhere a plain result.
        ...(this.apps.origin && toolNamesApp(t) ? { app: true as const } : {}),
      })),
      prompts: prompts.map((p) => ({
        name: p.name,
        ...(p.title ? { title: p.title } : {}),
        ...(p.description ? { description: p.description } : {}),
        ...(p.arguments ? { arguments: p.arguments } : {}),
      })),
      resources: resources.map((r) => ({
        uri: r.uri,
        name: r.name,
        ...(r.title ? { title: r.title } : {}),
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      })),
    };
  }

  private taskView(record: TaskRecord): TaskView {
    return toTaskView(record, this.host.tasks.isFollowing(record.taskId), this.answers.forTask(record.taskId));
  }

  private startCall(server: string, tool: string, args: Record<string, unknown>): string {
    this.requireServer(server);
    const callId = randomUUID();
    const controller = new AbortController();
    this.calling.set(callId, controller);
    const update = (view: CallView) => {
      // Keeping ended calls kept every result (tool results run to megabytes) for the life of the app.
      if (view.state === 'running') this.calls.set(callId, view);
      else this.calls.delete(callId);
      this.events.emit('callUpdated', view);
    };
    update({ callId, server, tool, state: 'running' });
    void this.host
      .call({ server, method: 'tools/call', name: tool, arguments: args, signal: controller.signal, callId })
      .then(
        ({ result }) => {
          const lastAnswer = this.answers.forCall(callId);
          update({ callId, server, tool, state: 'complete', result, ...(lastAnswer ? { lastAnswer } : {}) });
        },
        (error) =>
          update({
            callId,
            server,
            tool,
            // A task cancelled from the Tasks view ends its call as cancelled too.
            state: controller.signal.aborted || isHostError(error, 'cancelled') ? 'cancelled' : 'error',
            error: messageOf(error),
          }),
      )
      .finally(() => this.calling.delete(callId));
    return callId;
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

  private cancelRunningCall(callId: string): boolean {
    const c = this.calling.get(callId);
    if (!c) return false;
    c.abort(new HostError('cancelled', 'the call was cancelled by the user'));
    return true;
  }

  private async applySettings(patch: Partial<Settings>): Promise<Settings> {
    this.settings = { ...this.settings, ...patch };
    this.host.maxRounds = this.settings.maxRounds;
    this.host.questionTimeLimitMinutes = this.settings.questionTimeLimitMinutes;
    this.options.history?.setRedact(this.settings.redactHistory);
    await saveSettings(join(this.options.dataDir, 'settings.json'), this.settings);
    this.events.emit('settingsChanged', this.settings);
    return this.settings;
  }

  /** How many calls are running (ended ones are not kept). */
  get runningCalls(): number {
    return this.calls.size;
  }

  /** Stop everything: cancel open questions and calls, close connections and the journal. */
  async close(): Promise<void> {
    this.closing = true;
    for (const c of this.calling.values()) c.abort(new HostError('cancelled', 'the host is shutting down'));
    this.prompter.cancelAll();
    this.apps.closeAll();
    this.serversFile.close();
    await this.host.close();
    await this.options.history?.close();
  }
}

/** The entry keys the host API carries; the Servers form edits exactly these. */
const API_ENTRY_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers']);

/**
 * What an update from the app keeps of the entry on disk: keys the host API
 * cannot carry, so the form never showed them (sign-in settings, keys other
 * hosts write such as "disabled"). Without this, saving a server in the app
 * dropped its hand-written `oauth` settings. Sign-in settings go when the
 * server stops being an HTTP one.
 */
function keptOnUpdate(before: unknown, next: ServerEntry): Record<string, unknown> {
  if (typeof before !== 'object' || before === null || Array.isArray(before)) return {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (API_ENTRY_KEYS.has(key) || (key === 'oauth' && !('url' in next))) continue;
    kept[key] = value;
  }
  return kept;
}
