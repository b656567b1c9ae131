// The Electron-free host: configured servers, their connections, and calls
// that may need the human. The CLI, the desktop main process, the web shell
// and the gateway all drive this one class; its jobs live in host/: the
// connections (host/connections.ts), running a call (host/call-runner.ts) and
// a legacy server's questions (host/legacy-questions.ts).
import type { ElicitResult, Tool } from '@modelcontextprotocol/client';
import { DEFAULT_MAX_ROUNDS } from '../../shared/round-limit';
import type { ServerAuth } from './auth/server-auth';
import type { ServerEntry } from './config/server-config';
import { ServerList, type ServerListChange } from './config/server-list';
import { MemoryEraCache, type EraCache } from './connection/era-cache';
import type { ServerConnection } from './connection/server-connection';
import type { HostObserver } from './events';
import { CallRunner, type CallRequest, type CallResult, type CallRunOptions } from './host/call-runner';
import { ServerConnections, type HostAuthOptions } from './host/connections';
import { answerLegacyElicit } from './host/legacy-questions';
import type { Prompter, SignInPrompter } from './prompter/prompter';
import { QuestionGate, type QuestionAsker, type QuestionAskerDeps } from './prompter/question-gate';
import type { PasskeyGuard } from './passkeys/passkey-guard';
import type { PollBounds } from './tasks/poll-schedule';
import { TaskManager } from './tasks/task-manager';
import type { TaskStore } from './tasks/task-store';

export { callEndedReason, type CallRequest, type CallResult } from './host/call-runner';
export type { HostAuthOptions } from './host/connections';
export { toolHintsOf } from './host/server-slot';

/**
 * Who answers. Usually a Prompter in this process, which the Host's
 * QuestionGate asks. The gateway's human sits in the app instead, whose own
 * gate builds and checks every question: its `questions` hands them there
 * (RemoteQuestions), and its prompter only takes sign-ins.
 */
export type HostQuestionOptions =
  | { prompter: Prompter; questions?: undefined }
  | { prompter: SignInPrompter; questions: (deps: QuestionAskerDeps) => QuestionAsker };

export type HostOptions = HostBaseOptions & HostQuestionOptions;

export interface HostBaseOptions extends CallRunOptions {
  /** The servers: the process's one list (the servers file feeds it), or fixed entries. */
  servers: ServerList | Record<string, ServerEntry>;
  observer?: HostObserver;
  eraCache?: EraCache;
  /** Input rounds per call before it ends with a round-limit error. Default 10. */
  maxRounds?: number;
  auth?: HostAuthOptions;
  /** Where task records live (default: memory only). */
  taskStore?: TaskStore;
  /** Tasks followed at once per server. Default 8. */
  maxTasksPerServer?: number;
  /** Give up on a task still running after this long. Default 24 h. */
  maxTaskMs?: number;
  /** Poll interval bounds for tasks. */
  pollBounds?: PollBounds;
  /** The front end renders MCP Apps (the ui extension is declared to every server). */
  rendersApps?: boolean;
  /** The passkey step of accepts that need one (Settings → Passkeys). */
  passkeys?: PasskeyGuard;
}

/** The host core. */
export class Host {
  /** The one server list; the Host follows its changes (a changed or removed server is disconnected). */
  readonly servers: ServerList;
  private readonly muted = new Set<string>();
  private readonly connections: ServerConnections;
  private readonly calls: CallRunner;
  private readonly gate: QuestionAsker;
  private readonly observer: HostObserver;
  /** The host's tasks: running, ended, remembered across restarts. */
  readonly tasks: TaskManager;
  maxRounds: number;
  /** The user's limit on a question's time, in minutes; 0 (the default): none. */
  questionTimeLimitMinutes = 0;

  constructor(options: HostOptions) {
    this.servers = options.servers instanceof ServerList ? options.servers : new ServerList(options.servers);
    this.servers.onChange((change) => this.followList(change));
    this.observer = options.observer ?? {};
    this.maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    const deps: QuestionAskerDeps = {
      observer: this.observer,
      isMuted: (server) => this.muted.has(server),
      timeLimitMinutes: () => this.questionTimeLimitMinutes,
      ...(options.passkeys ? { passkeys: options.passkeys } : {}),
    };
    this.gate = options.questions
      ? options.questions(deps)
      : new QuestionGate(options.prompter, deps.observer, deps.isMuted, deps.timeLimitMinutes, deps.passkeys);
    this.connections = new ServerConnections({
      servers: this.servers,
      eraCache: options.eraCache ?? new MemoryEraCache(),
      prompter: options.prompter,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.rendersApps ? { rendersApps: true } : {}),
      onLegacyElicit: (server, params, signal) =>
        (this.tasks.legacyQuestion(server, params, signal) as Promise<ElicitResult> | undefined) ??
        answerLegacyElicit(this.gate, this.connections.slot(server), server, params, signal),
      onTaskStatus: (server, params) => this.tasks.statusNotification(server, params),
    });
    this.tasks = new TaskManager({
      gate: this.gate,
      observer: this.observer,
      connect: (server) => this.connect(server),
      ...(options.taskStore ? { store: options.taskStore } : {}),
      ...(options.maxTasksPerServer ? { maxPerServer: options.maxTasksPerServer } : {}),
      ...(options.maxTaskMs ? { maxTaskMs: options.maxTaskMs } : {}),
      ...(options.pollBounds ? { pollBounds: options.pollBounds } : {}),
    });
    this.calls = new CallRunner({
      connections: this.connections,
      gate: this.gate,
      observer: this.observer,
      tasks: this.tasks,
      options,
      maxRounds: () => this.maxRounds,
      ...(options.passkeys ? { needsToolHints: () => options.passkeys!.needsToolHints() } : {}),
    });
  }

  /** Names of configured servers. */
  serverNames(): string[] {
    return this.servers.names();
  }

  hasServer(name: string): boolean {
    return this.servers.has(name);
  }

  /** Add or replace a server; an existing connection to it is closed. */
  async setServer(name: string, entry: ServerEntry): Promise<void> {
    this.servers.set(name, entry);
    await this.connections.closingOf(name);
  }

  /** Remove a server and close its connection. */
  async removeServer(name: string): Promise<void> {
    this.servers.remove(name);
    await this.connections.closingOf(name);
  }

  /** The list changed (from any writer, or the file on disk): a changed or removed server starts afresh. */
  private followList(change: ServerListChange): void {
    this.connections.forget(change);
    for (const name of change.removed) this.muted.delete(name);
  }

  /** Resolves once connections closed because their server changed have closed. */
  async settled(name: string): Promise<void> {
    await this.connections.closingOf(name);
  }

  /** "Stop asking this session": questions from the server are cancelled automatically. */
  setMuted(server: string, muted: boolean): void {
    if (muted) this.muted.add(server);
    else this.muted.delete(server);
  }

  isMuted(server: string): boolean {
    return this.muted.has(server);
  }

  /** The sign-in of an HTTP server (undefined for stdio servers or without auth options). */
  serverAuth(name: string): ServerAuth | undefined {
    return this.connections.serverAuth(name);
  }

  /** Connect (once) to a configured server. */
  connect(name: string, signal?: AbortSignal): Promise<ServerConnection> {
    return this.connections.connect(name, signal);
  }

  /** The server's connection if it is open right now (no waiting, no connecting). */
  connectedNow(name: string): ServerConnection | undefined {
    return this.connections.connectedNow(name);
  }

  /** List a server's tools (all pages), remembering what each mirrors into headers. */
  listTools(name: string, signal?: AbortSignal): Promise<Tool[]> {
    return this.connections.listTools(name, signal);
  }

  /** Close one server's connection (if open). */
  disconnect(name: string): Promise<void> {
    return this.connections.disconnect(name);
  }

  /** Run a tools/call, prompts/get or resources/read to its final result. */
  call(request: CallRequest): Promise<CallResult> {
    return this.calls.call(request);
  }

  /** Close every connection. */
  async close(): Promise<void> {
    this.tasks.detachAll();
    await this.connections.closeAll();
  }
}
