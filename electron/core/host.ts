// The Electron-free host: configured servers, their connections, and calls
// that may need the human. The CLI, the desktop main process, the web shell
// and the gateway all drive this one class.
import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { CallMethod, ToolHints } from '../../shared/elicitation/types';
import type { Tool } from '@modelcontextprotocol/client';
import { ElicitationCompletions, runLegacyCall } from './calls/legacy-call';
import type { QuestionAwareDeadline } from './calls/question-aware-deadline';
import { paramHeaders, scanHeaderDeclarations, type HeaderDeclaration } from './calls/param-headers';
import { runInputRequiredLoop } from './calls/input-required-loop';
import type { ServerEntry } from './config/server-config';
import { ServerList, type ServerListChange } from './config/server-list';
import { MemoryEraCache, type EraCache } from './connection/era-cache';
import { openConnection, type ServerConnection } from './connection/server-connection';
import type { CallContext, CallOutcome, HostObserver } from './events';
import { HostError, isHostError, messageOf } from './host-error';
import type { Prompter } from './prompter/prompter';
import { LIMITS } from './limits';
import { QuestionGate } from './prompter/question-gate';
import type { CredentialStore } from './auth/credential-store';
import { ServerAuth, signInCallContext, type SignInEvent } from './auth/server-auth';
import { DEFAULT_MAX_ROUNDS } from '../../shared/round-limit';
import type { OpenedLink } from './links/launcher-file';

/** Sign-in to HTTP servers that ask for it (MCP authorization). */
export interface HostAuthOptions {
  store: CredentialStore;
  /**
   * Open a sign-in link in the system browser (the caller's open-external gate
   * re-checks it); what it returns is closed when the sign-in ends.
   */
  open(url: string): Promise<OpenedLink | void>;
  /** False: never ask (`--no-sign-in`, the gateway's agent side): a needed sign-in ends with "sign-in needed". */
  allowSignIn?: boolean;
  /** The app's client ID metadata document URL setting. */
  clientMetadataUrl?: string;
  onEvent?(event: SignInEvent): void | Promise<void>;
  /** A request at the redirect listener that was not the sign-in's answer (a wrong state): one sentence. */
  onFault?(message: string): void | Promise<void>;
  callbackTimeoutMs?: number;
}
import type { PollBounds } from './tasks/poll-schedule';
import { TaskManager } from './tasks/task-manager';
import { legacyTaskOf, sendLegacyTaskCall, taskOps } from './tasks/task-ops';
import type { TaskStore } from './tasks/task-store';
import { parseTask, type TaskSnapshot, type TaskStatus } from './tasks/task-types';

export interface HostOptions {
  /** The servers: the process's one list (the servers file feeds it), or fixed entries. */
  servers: ServerList | Record<string, ServerEntry>;
  prompter: Prompter;
  observer?: HostObserver;
  eraCache?: EraCache;
  /** Input rounds per call before it ends with a round-limit error. Default 10. */
  maxRounds?: number;
  /** The round-limit error's advice in the front end's words (the app names Settings). Default: the CLI's flag. */
  roundLimitAdvice?: string;
  /** First pause before re-sending a state-only round. Default 250 ms. */
  pacingDelayMs?: number;
  /**
   * The server's time per request (one leg, or one legacy attempt), never
   * counting a human deciding a question. Default: the SDK's 60 s.
   */
  requestTimeoutMs?: number;
  auth?: HostAuthOptions;
  /** Where task records live (default: memory only). */
  taskStore?: TaskStore;
  /** Tasks followed at once per server. Default 8. */
  maxTasksPerServer?: number;
  /** Give up on a task still running after this long. Default 24 h. */
  maxTaskMs?: number;
  /** Poll interval bounds for tasks. */
  pollBounds?: PollBounds;
  /** The ttl asked for legacy task-augmented calls. Default 1 h. */
  taskTtlMs?: number;
  /** The front end renders MCP Apps (the ui extension is declared to every server). */
  rendersApps?: boolean;
}

export interface CallRequest {
  server: string;
  method: CallMethod;
  /** tools/call: tool name; prompts/get: prompt name; resources/read: URI. */
  name: string;
  /** tools/call and prompts/get arguments. */
  arguments?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The agent connection that caused the call (gateway). */
  agent?: string;
  callId?: string;
  /** Run as a task where the tool allows it (legacy taskSupport "optional"): the call is known to be long. */
  preferTask?: boolean;
  /** When the call becomes a task, remember it and return at once instead of following it. */
  detach?: boolean;
  /**
   * Told the final result of a call that completed without becoming a task,
   * the moment it is known: before its questions are withdrawn and before the
   * observer hears of the end (whose bookkeeping the promise then waits for).
   * The gateway answers its agent here, so the agent never waits for the
   * Host's end-of-call work. It must not throw.
   */
  onResult?(result: Record<string, unknown>): void;
}

export interface CallResult {
  call: CallContext;
  result: Record<string, unknown>;
  rounds: number;
  /** Set when the call became a task. */
  task?: { taskId: string; status: TaskStatus; detached: boolean };
}

interface LiveCall {
  context: CallContext;
  round: number;
  controller: AbortController;
  /** A host error raised inside a legacy elicitation handler ends the call with it. */
  failure?: HostError;
  legacyQuestions: number;
  /** The running legacy attempt's clock, stopped while a question is open. */
  deadline?: QuestionAwareDeadline;
  /** Set the moment the call ends, for whatever reason: nothing is sent for it afterwards. */
  ended: boolean;
}

/** The abort reason that withdraws a call's open questions when the call ends. */
export function callEndedReason(why: string): HostError {
  // Made once per call and read only for its code and message: a stack
  // trace is never read and costs (docs/gateway-profile.md).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new HostError('cancelled', `the call ended (${why})`, { callEnded: true });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface ServerSlot {
  connection?: Promise<ServerConnection>;
  /**
   * Ends the attempt behind `connection` while it is still opening. A stdio
   * server can take minutes to answer its first message (npx fetching a
   * package, a registry that retries), and closing must not wait for that.
   */
  stopOpening?: AbortController;
  /** The connection once open (the gateway checks it without awaiting), while `connection` is its promise. */
  open?: { promise: Promise<ServerConnection>; conn: ServerConnection };
  completions: ElicitationCompletions;
  calls: Map<string, LiveCall>;
  /** SEP-2243 header declarations by tool, from the last tools/list. */
  toolHeaders: Map<string, HeaderDeclaration[]>;
  /** Legacy execution.taskSupport by tool, from the last tools/list. */
  toolTaskSupport?: Map<string, string>;
  /** The annotations each tool set (destructive, read-only), from the last tools/list; dialogs show them. */
  toolHints: Map<string, ToolHints>;
}

/** The hints of a tools/list entry's `annotations`, or undefined when it sets none. */
export function toolHintsOf(annotations: unknown): ToolHints | undefined {
  if (typeof annotations !== 'object' || annotations === null) return undefined;
  const a = annotations as { destructiveHint?: unknown; readOnlyHint?: unknown };
  if (a.readOnlyHint === true) return { readOnly: true };
  if (a.destructiveHint === true) return { destructive: true };
  return undefined;
}

/** The called tool's hints for its CallContext (tools/call only), as a spread. */
function toolHintsFor(slot: ServerSlot, request: { method: CallMethod; name: string }): { toolHints?: ToolHints } {
  const hints = request.method === 'tools/call' ? slot.toolHints.get(request.name) : undefined;
  return hints ? { toolHints: hints } : {};
}

/** The host core. */
export class Host {
  /** The one server list; the Host follows its changes (a changed or removed server is disconnected). */
  readonly servers: ServerList;
  /** Connections being closed because their server changed, so setServer/removeServer can wait for them. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly slots = new Map<string, ServerSlot>();
  private readonly muted = new Set<string>();
  private readonly auths = new Map<string, ServerAuth>();
  private readonly eraCache: EraCache;
  private readonly gate: QuestionGate;
  private readonly observer: HostObserver;
  /** The host's tasks: running, ended, remembered across restarts. */
  readonly tasks: TaskManager;
  maxRounds: number;
  /** The user's limit on a question's time, in minutes; 0 (the default): none. */
  questionTimeLimitMinutes = 0;

  constructor(private readonly options: HostOptions) {
    this.servers = options.servers instanceof ServerList ? options.servers : new ServerList(options.servers);
    this.servers.onChange((change) => this.followList(change));
    this.eraCache = options.eraCache ?? new MemoryEraCache();
    this.observer = options.observer ?? {};
    this.maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    this.gate = new QuestionGate(
      options.prompter,
      this.observer,
      (server) => this.muted.has(server),
      () => this.questionTimeLimitMinutes,
    );
    this.tasks = new TaskManager({
      gate: this.gate,
      observer: this.observer,
      connect: (server) => this.connect(server),
      ...(options.taskStore ? { store: options.taskStore } : {}),
      ...(options.maxTasksPerServer ? { maxPerServer: options.maxTasksPerServer } : {}),
      ...(options.maxTaskMs ? { maxTaskMs: options.maxTaskMs } : {}),
      ...(options.pollBounds ? { pollBounds: options.pollBounds } : {}),
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
    await this.closing.get(name);
  }

  /** Remove a server and close its connection. */
  async removeServer(name: string): Promise<void> {
    this.servers.remove(name);
    await this.closing.get(name);
  }

  /** The list changed (from any writer, or the file on disk): a changed or removed server starts afresh. */
  private followList(change: ServerListChange): void {
    for (const name of [...change.changed, ...change.removed]) {
      this.auths.delete(name);
      const done: Promise<void> = this.disconnect(name)
        .catch(() => undefined)
        .then(() => {
          if (this.closing.get(name) === done) this.closing.delete(name);
        });
      this.closing.set(name, done);
    }
    for (const name of change.removed) this.muted.delete(name);
  }

  /** Resolves once connections closed because their server changed have closed. */
  async settled(name: string): Promise<void> {
    await this.closing.get(name);
  }

  /** "Stop asking this session": questions from the server are cancelled automatically. */
  setMuted(server: string, muted: boolean): void {
    if (muted) this.muted.add(server);
    else this.muted.delete(server);
  }

  isMuted(server: string): boolean {
    return this.muted.has(server);
  }

  private slot(name: string): ServerSlot {
    let slot = this.slots.get(name);
    if (!slot) {
      slot = {
        completions: new ElicitationCompletions(),
        calls: new Map(),
        toolHeaders: new Map(),
        toolHints: new Map(),
      };
      this.slots.set(name, slot);
    }
    return slot;
  }

  /** The sign-in of an HTTP server (undefined for stdio servers or without auth options). */
  serverAuth(name: string): ServerAuth | undefined {
    const entry = this.servers.get(name);
    const opts = this.options.auth;
    if (!entry || !opts || !('url' in entry) || entry.oauth?.grant === 'client_credentials') return undefined;
    let a = this.auths.get(name);
    if (!a) {
      const prompter = this.options.prompter;
      a = new ServerAuth({
        server: name,
        serverUrl: entry.url,
        settings: entry.oauth ?? {},
        store: opts.store,
        interaction: {
          ...(opts.allowSignIn !== false && prompter.signIn ? { ask: (q, signal) => prompter.signIn!(q, signal) } : {}),
          open: (url) => opts.open(url),
          ...(prompter.signInWaiting ? { waiting: (q, signal) => prompter.signInWaiting!(q, signal) } : {}),
        },
        ...(opts.clientMetadataUrl ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
        ...(opts.onEvent ? { onEvent: (e) => opts.onEvent!(e) } : {}),
        ...(opts.onFault ? { onFault: (m) => opts.onFault!(m) } : {}),
        ...(opts.callbackTimeoutMs ? { callbackTimeoutMs: opts.callbackTimeoutMs } : {}),
      });
      this.auths.set(name, a);
    }
    return a;
  }

  /** Connect (once) to a configured server. */
  connect(name: string, signal?: AbortSignal): Promise<ServerConnection> {
    const entry = this.servers.get(name);
    if (!entry) return Promise.reject(new HostError('config', `no server named "${name}" is configured`));
    const slot = this.slot(name);
    if (!slot.connection) {
      const serverAuth = this.serverAuth(name);
      const stopOpening = new AbortController();
      slot.stopOpening = stopOpening;
      const opening = openConnection(name, entry, {
        eraCache: this.eraCache,
        ...(serverAuth ? { serverAuth } : {}),
        ...(this.options.rendersApps ? { rendersApps: true } : {}),
        signal: signal ? AbortSignal.any([signal, stopOpening.signal]) : stopOpening.signal,
        legacyHooks: {
          onElicit: (params, sig) =>
            (this.tasks.legacyQuestion(name, params, sig) as Promise<ElicitResult> | undefined) ??
            this.answerLegacyElicit(name, params, sig),
          onElicitationComplete: (id) => slot.completions.complete(id),
          onTaskStatus: (params) => this.tasks.statusNotification(name, params),
        },
      });
      slot.connection = opening;
      const opened = () => {
        if (slot.stopOpening === stopOpening) slot.stopOpening = undefined;
      };
      opening.then(
        (conn) => {
          opened();
          slot.open = { promise: opening, conn };
          conn.onClose((reason) => {
            // The server went away (or the host closed it, with a reason): its
            // open questions are withdrawn by the calls' abort, and the next
            // use reconnects.
            if (slot.connection === opening) slot.connection = undefined;
            if (slot.open?.conn === conn) slot.open = undefined;
            const why = `server "${name}" ${reason ?? 'closed the connection'}`;
            for (const live of slot.calls.values()) live.controller.abort(new HostError('connection', why));
          });
        },
        () => {
          opened();
          if (slot.connection === opening) slot.connection = undefined;
        },
      );
    }
    return slot.connection;
  }

  /** The server's connection if it is open right now (no waiting, no connecting). */
  connectedNow(name: string): ServerConnection | undefined {
    const slot = this.slots.get(name);
    const open = slot?.open;
    return open && slot.connection === open.promise && !open.conn.closed ? open.conn : undefined;
  }

  /** List a server's tools (all pages), remembering what each mirrors into headers. */
  async listTools(name: string, signal?: AbortSignal): Promise<Tool[]> {
    const conn = await this.connect(name, signal);
    const { tools } = await conn.client.listTools();
    const slot = this.slot(name);
    slot.toolHeaders.clear();
    slot.toolHints.clear();
    slot.toolTaskSupport = new Map();
    for (const tool of tools) {
      const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
      if (typeof support === 'string') slot.toolTaskSupport.set(tool.name, support);
      const hints = toolHintsOf(tool.annotations);
      if (hints) slot.toolHints.set(tool.name, hints);
      const scan = scanHeaderDeclarations(tool.inputSchema);
      if (scan.valid && scan.declarations.length > 0) slot.toolHeaders.set(tool.name, scan.declarations);
    }
    return tools;
  }

  /** Close one server's connection (if open). */
  async disconnect(name: string): Promise<void> {
    const slot = this.slots.get(name);
    const pending = slot?.connection;
    if (!slot || !pending) return;
    slot.connection = undefined;
    // Still opening: end the attempt (its server process included) instead of waiting for it.
    slot.stopOpening?.abort(new HostError('cancelled', `connecting to "${name}" was cancelled`));
    slot.stopOpening = undefined;
    const conn = await pending.catch(() => undefined);
    await conn?.close();
  }

  /** Run a tools/call, prompts/get or resources/read to its final result. */
  call(request: CallRequest): Promise<CallResult> {
    // Only an HTTP server signs in. For a stdio one the context is skipped:
    // an AsyncLocalStorage in use puts a hook on every promise in the
    // process (measured in the gateway bench, docs/gateway-profile.md).
    if (!this.serverAuth(request.server)) return this.runCall(request);
    // A sign-in this call runs into names the call in its dialog and history.
    return signInCallContext.run(
      {
        method: request.method,
        name: request.name,
        ...(request.agent ? { agent: request.agent } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
      () => this.runCall(request),
    );
  }

  /**
   * The end of a call that completed, told as every call's is. Not async: it
   * hands back the observer's own answer, so awaiting it is awaiting that
   * (no extra promise per call).
   */
  private callCompleted(context: CallContext, result: Record<string, unknown>, rounds: number): void | Promise<void> {
    return this.observer.callEnded?.({
      call: context,
      outcome: 'complete',
      isError: result.isError === true,
      rounds,
      endedAt: new Date().toISOString(),
    });
  }

  /** The end of a call that failed, told as every call's is (a round-limit is also a fault). */
  private async callFailed(context: CallContext, failure: unknown, rounds: number): Promise<void> {
    const outcome: CallOutcome = isHostError(failure, 'round-limit')
      ? 'round-limit'
      : isHostError(failure, 'cancelled')
        ? 'cancelled'
        : 'error';
    if (isHostError(failure, 'round-limit')) await this.gate.fault(context, failure);
    await this.observer.callEnded?.({
      call: context,
      outcome,
      error: messageOf(failure),
      rounds,
      endedAt: new Date().toISOString(),
    });
  }

  private async runCall(request: CallRequest): Promise<CallResult> {
    const conn = await this.connect(request.server, request.signal);
    const slot = this.slot(request.server);
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) controller.abort(request.signal.reason);
    request.signal?.addEventListener('abort', onOuterAbort, { once: true });

    const context: CallContext = {
      callId: request.callId ?? randomUUID(),
      server: request.server,
      era: conn.era,
      protocolVersion: conn.protocolVersion,
      method: request.method,
      name: request.name,
      ...(request.arguments ? { arguments: request.arguments } : {}),
      ...(request.agent ? { agent: request.agent } : {}),
      ...toolHintsFor(slot, request),
    };
    const live: LiveCall = { context, round: 1, controller, legacyQuestions: 0, ended: false };
    // Whatever ends the call withdraws its open questions at once, before
    // anything else hears of the end.
    const end = (why: string) => {
      live.ended = true;
      if (!controller.signal.aborted) controller.abort(callEndedReason(why));
    };
    slot.calls.set(context.callId, live);

    const params: Record<string, unknown> =
      request.method === 'resources/read'
        ? { uri: request.name }
        : { name: request.name, ...(request.arguments ? { arguments: request.arguments } : {}) };
    let rounds = 0;
    try {
      const legacyTask =
        conn.era === 'legacy' && request.method === 'tools/call'
          ? await this.legacyTaskParams(conn, slot, request)
          : undefined;
      const { result, rounds: r } = legacyTask
        ? {
            result: await sendLegacyTaskCall(
              conn.client,
              { ...params, task: legacyTask },
              controller.signal,
              this.options.requestTimeoutMs,
            ),
            rounds: 0,
          }
        : conn.era === 'modern'
          ? await runInputRequiredLoop(conn.client, request.method, params, context, this.gate, {
              maxRounds: this.maxRounds,
              pacingDelayMs: this.options.pacingDelayMs ?? 250,
              ...(this.options.roundLimitAdvice ? { roundLimitAdvice: this.options.roundLimitAdvice } : {}),
              signal: controller.signal,
              ...(this.options.requestTimeoutMs ? { requestTimeoutMs: this.options.requestTimeoutMs } : {}),
              ...(request.method === 'tools/call' && 'url' in conn.entry
                ? { headers: paramHeaders(slot.toolHeaders.get(request.name) ?? [], request.arguments) }
                : {}),
            })
          : await runLegacyCall(conn.client, request.method, params, context, this.gate, slot.completions, {
              maxRounds: this.maxRounds,
              signal: controller.signal,
              ...(this.options.requestTimeoutMs ? { requestTimeoutMs: this.options.requestTimeoutMs } : {}),
              onAttempt: (round, deadline) => {
                live.round = round;
                live.deadline = deadline;
              },
            });
      rounds = r;
      if (live.failure) throw live.failure;
      // A call that became a task goes on until the task ends.
      const taskSnap = this.taskOf(conn, result);
      if (taskSnap) {
        const done = await this.runTask(conn, context, taskSnap, controller.signal, request, rounds);
        end('its task ended');
        return done;
      }
      request.onResult?.(result);
      end('it completed');
      await this.callCompleted(context, result, rounds);
      return { call: context, result, rounds };
    } catch (error) {
      const failure =
        live.failure ??
        (controller.signal.aborted && isHostError(controller.signal.reason) ? controller.signal.reason : error);
      end(messageOf(failure));
      await this.callFailed(context, failure, rounds);
      throw failure;
    } finally {
      end('it ended');
      request.signal?.removeEventListener('abort', onOuterAbort);
      slot.calls.delete(context.callId);
    }
  }

  /** The task a result stands for (modern resultType "task", legacy CreateTaskResult), if any. */
  private taskOf(conn: ServerConnection, result: Record<string, unknown>): TaskSnapshot | undefined {
    if (conn.era === 'modern') {
      const raw = conn.taskWire.takeTaskHandle(result);
      if (!raw) return undefined;
      try {
        return parseTask(raw, `server "${conn.name}" answered tools/call with a task`);
      } catch (e) {
        throw new HostError('protocol', (e as Error).message);
      }
    }
    return legacyTaskOf(result, conn.name);
  }

  /** Legacy: `params.task` when the server and the tool allow (required) or the caller prefers (optional) a task. */
  private async legacyTaskParams(
    conn: ServerConnection,
    slot: ServerSlot,
    request: CallRequest,
  ): Promise<{ ttl: number } | undefined> {
    const caps = conn.client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } };
    if (!caps?.tasks?.requests?.tools?.call) return undefined;
    if (!slot.toolTaskSupport) await this.listTools(request.server, request.signal);
    const support = slot.toolTaskSupport?.get(request.name);
    if (support !== 'required' && !(support === 'optional' && (request.preferTask || request.detach))) return undefined;
    this.tasks.checkLimit(request.server);
    return { ttl: this.options.taskTtlMs ?? 3_600_000 };
  }

  /** Follow (or, detached, remember) a call that became a task. */
  private async runTask(
    conn: ServerConnection,
    context: CallContext,
    snap: TaskSnapshot,
    signal: AbortSignal,
    request: CallRequest,
    rounds: number,
  ): Promise<CallResult> {
    if (conn.era === 'modern') {
      try {
        this.tasks.checkLimit(conn.name);
      } catch (error) {
        // The server chose a task; the host cannot follow another one.
        await taskOps(conn.client, conn.era, conn.name)
          .cancel(snap.taskId)
          .catch(() => undefined);
        throw error;
      }
    }
    if (request.detach) {
      await this.tasks.remember(conn, context, snap);
      const result = {
        content: [
          {
            type: 'text',
            text: `Task ${snap.taskId} started (${snap.status}); follow it with: countersign task get ${snap.taskId}`,
          },
        ],
        _meta: { 'io.countersign/host-generated': true },
      };
      await this.callCompleted(context, result, rounds);
      return { call: context, result, rounds, task: { taskId: snap.taskId, status: snap.status, detached: true } };
    }
    const result = await this.tasks.follow(conn, context, snap, signal);
    await this.callCompleted(context, result, rounds);
    return { call: context, result, rounds, task: { taskId: snap.taskId, status: 'completed', detached: false } };
  }

  /** Answer a legacy server's elicitation/create through the gate. */
  private async answerLegacyElicit(
    server: string,
    params: Record<string, unknown>,
    serverSignal: AbortSignal,
  ): Promise<ElicitResult> {
    const slot = this.slot(server);
    // Over stdio a legacy request carries no link to the call that caused it.
    // With exactly one call in flight it must be that one; otherwise the
    // dialog says honestly that the cause is unknown.
    const inFlight = [...slot.calls.values()];
    const live = inFlight.length === 1 ? inFlight[0] : undefined;
    // No call's clock runs while the human decides. When the cause is
    // unknown every call of this server waits; the question is withdrawn once
    // every call that could have asked it has ended.
    const releases = inFlight.map((c) => c.deadline?.hold() ?? (() => undefined));
    const signal =
      inFlight.length > 0
        ? AbortSignal.any([serverSignal, allEnded(inFlight.map((c) => c.controller.signal))])
        : serverSignal;
    const n = live ? ++live.legacyQuestions : 1;
    const key = typeof params.elicitationId === 'string' ? params.elicitationId : `elicit-${n}`;
    try {
      if (live)
        await this.gate.checkCount(
          live.context,
          server,
          n,
          LIMITS.legacyQuestionsPerCall,
          `questions (elicitation/create) during one ${live.context.method}`,
        );
      const { answer } = await this.gate.ask(
        params,
        { call: live?.context ?? null, server, era: 'legacy', round: live?.round ?? 1, key },
        signal,
      );
      // The last check before the answer goes out: a call that ended is
      // never sent the human's answer.
      if (inFlight.length > 0 && inFlight.every((c) => c.ended)) return { action: 'cancel' };
      return answer;
    } catch (error) {
      if (isHostError(error, 'cancelled')) return { action: 'cancel' };
      if (live && isHostError(error)) {
        live.failure = error;
        live.controller.abort(error);
      }
      throw error;
    } finally {
      for (const release of releases) release();
    }
  }

  /** Close every connection. */
  async close(): Promise<void> {
    this.tasks.detachAll();
    await Promise.all([...this.slots.keys()].map((name) => this.disconnect(name)));
  }
}

/** Aborts once every one of `signals` has aborted (with the last one's reason). */
function allEnded(signals: AbortSignal[]): AbortSignal {
  if (signals.length === 1) return signals[0]!;
  const controller = new AbortController();
  const check = () => {
    const last = signals.find((sg) => sg.aborted);
    if (signals.every((sg) => sg.aborted)) controller.abort(last?.reason);
  };
  for (const sg of signals) sg.addEventListener('abort', check, { once: true });
  check();
  return controller.signal;
}
