// A complete HostApi living in the page: a real in-memory question queue,
// server list, call runner and history that records every call. It backs the
// browser harness (Playwright pushes questions and reads what reached the
// API) and the component tests. Never used by the shipped app's entry point.
import type { Question } from '../../../shared/elicitation/types';
import type { SignInQuestion } from '../../../shared/auth/types';
import type {
  CallView,
  CatalogView,
  HistoryEntryView,
  HistoryFilter,
  HistoryVerifyView,
  HostApi,
  HostEventName,
  HostEvents,
  HostMethodName,
  HostParams,
  HostResults,
  PasskeyView,
  LastAnswer,
  ServerEntry,
  ServerView,
  Settings,
  TaskView,
} from '../../../shared/host-api/contract';
import { createHostClient, errorFromWire } from '../../../shared/host-api/host-client';
import type { WireError } from '../../../shared/host-api/wire';
import { DEFAULT_SETTINGS } from '../../../shared/settings-defaults';

/** One recorded API call. */
export interface HostCall {
  method: HostMethodName;
  params: unknown;
  /** performance.now() when the call arrived. */
  at: number;
}

/** A HostApi plus the knobs a test or harness uses to drive it. */
export interface InMemoryHost {
  api: HostApi;
  /** Every call made to `api`, in order. */
  calls: HostCall[];
  /** A question arrives (emits questionAdded). */
  push(question: Question): void;
  /** A sign-in joins the queue (emits signInAdded). */
  pushSignIn(question: SignInQuestion): void;
  /** The host takes a question away for a reason other than an answer. */
  withdraw(questionId: string, reason: HostEvents['questionRemoved']['reason'], note?: string): void;
  /** Questions still waiting on the host side. */
  waiting(): Question[];
  /** What the next openQuestionUrl calls resolve to. */
  setOpenResult(result: HostResults['openQuestionUrl']): void;
  /** Makes the next answerQuestion call reject with this message (simulates a broken transport). */
  failNextAnswer(message: string): void;
  /** Makes the next call of `method` reject with this host refusal (a message, or message + code + details). */
  failNext(method: HostMethodName, error: string | WireError): void;
  /** Emits any host event. */
  emit<E extends HostEventName>(event: E, payload: HostEvents[E]): void;
  /** Replaces the server list (emits serversChanged). */
  setServers(servers: ServerView[]): void;
  /** Calls started and not finished. */
  runningCalls(): CallView[];
  /** Ends a running call with a result (complete) or an error (emits callUpdated). */
  finishCall(callId: string, outcome: { result: unknown; lastAnswer?: LastAnswer } | { error: string }): void;
  /** Appends a history item (oldest first, like the journal) and emits historyAppended. */
  appendHistory(item: HistoryEntryView): void;
  /** Adds or replaces a task (by id) and emits taskUpdated. */
  putTask(task: TaskView): void;
}

/** Options for a fresh in-memory host. */
export interface InMemoryHostOptions {
  settings?: Partial<Settings>;
  /** Server names, all shown connected in the modern era. */
  servers?: string[];
  /** Full server views (instead of `servers`). */
  serverViews?: ServerView[];
  questions?: Question[];
  /** Catalog per server name. */
  catalogs?: Record<string, CatalogView>;
  /** History items, oldest first. */
  history?: HistoryEntryView[];
  /** Tasks, newest first. */
  tasks?: TaskView[];
  /**
   * Like the real host reading from the journal's end: each query finds only this many items past the
   * page asked for, and reports the total as complete only once it has seen them all. Default: everything.
   */
  historyReadAhead?: number;
  /** What verifyHistory reports (default: an intact chain of every history item). */
  historyVerify?: HistoryVerifyView;
}

const EMPTY_CATALOG: CatalogView = { tools: [], prompts: [], resources: [] };

function connected(name: string, entry: ServerEntry = { command: name }): ServerView {
  return { name, entry, status: 'connected', era: 'modern', protocolVersion: '2026-07-28', muted: false };
}

/** The item filter the real host applies (electron/core/history/query.ts), enough for tests. */
export function matchesHistoryFilter(item: HistoryEntryView, filter: HistoryFilter): boolean {
  if (filter.since && item.ts < new Date(filter.since).toISOString()) return false;
  if (filter.until && item.ts >= new Date(filter.until).toISOString()) return false;
  const q = item.kind === 'question' ? item : undefined;
  const entry = item.kind === 'other' ? item.entry : undefined;
  const server = q ? q.question.server.name : entry && entry.kind !== 'note' ? entry.server : undefined;
  if (filter.server !== undefined && server !== filter.server) return false;
  if ((filter.action !== undefined || filter.mode !== undefined) && !q) return false;
  if (filter.action !== undefined && (q?.answer?.action ?? 'none') !== filter.action) return false;
  if (filter.mode !== undefined && filter.mode !== 'question' && q?.question.mode !== filter.mode) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    if (!JSON.stringify(item).toLowerCase().includes(needle)) return false;
  }
  return true;
}

/** Creates an in-memory host. */
export function createInMemoryHost(options: InMemoryHostOptions = {}): InMemoryHost {
  const calls: HostCall[] = [];
  let deliver: (event: string, payload: unknown) => void = () => undefined;
  let queue: Question[] = [...(options.questions ?? [])];
  let signIns: SignInQuestion[] = [];
  let settings: Settings = { ...DEFAULT_SETTINGS, ...options.settings };
  let openResult: HostResults['openQuestionUrl'] = { opened: true };
  let answerFailure: string | null = null;
  const failures = new Map<HostMethodName, string | WireError>();
  let servers: ServerView[] = options.serverViews
    ? structuredClone(options.serverViews)
    : (options.servers ?? []).map((n) => connected(n));
  const running = new Map<string, CallView>();
  const history: HistoryEntryView[] = [...(options.history ?? [])];
  let callCounter = 0;
  let tasks: TaskView[] = structuredClone(options.tasks ?? []);
  const putTask = (task: TaskView) => {
    tasks = tasks.some((t) => t.taskId === task.taskId)
      ? tasks.map((t) => (t.taskId === task.taskId ? task : t))
      : [task, ...tasks];
    emit('taskUpdated', task);
  };

  const emit = <E extends HostEventName>(event: E, payload: HostEvents[E]) => {
    deliver(event, structuredClone(payload));
  };
  const changed = () => {
    emit('serversChanged', servers);
    return servers;
  };
  const requireServer = (name: string) => {
    const s = servers.find((v) => v.name === name);
    if (!s) throw new Error(`no server named "${name}" is configured`);
    return s;
  };
  let passkeys: PasskeyView[] = [];
  const filtered = (filter: HistoryFilter) => history.filter((item) => matchesHistoryFilter(item, filter));

  const handlers: { [M in HostMethodName]: (params: HostParams<M>) => HostResults[M] } = {
    listServers: () => servers,
    addServer: ({ name, entry }) => {
      if (servers.some((s) => s.name === name)) throw new Error(`a server named "${name}" already exists`);
      servers = [...servers, { name, entry, status: 'connecting', muted: false }];
      return changed();
    },
    updateServer: ({ name, entry }) => {
      requireServer(name);
      servers = servers.map((s) => (s.name === name ? { name, entry, status: 'connecting', muted: s.muted } : s));
      return changed();
    },
    removeServer: ({ name }) => {
      requireServer(name);
      servers = servers.filter((s) => s.name !== name);
      return changed();
    },
    importServers: ({ json, dryRun, names }) => {
      const doc = JSON.parse(json) as {
        mcpServers?: Record<string, ServerEntry>;
        servers?: Record<string, ServerEntry>;
        inputs?: HostResults['importServers']['inputs'];
      };
      const found = doc.mcpServers ?? doc.servers;
      if (!found)
        throw new Error('the imported file has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object');
      const imported: string[] = [];
      const skipped: Array<{ name: string; reason: string }> = [];
      const plan: HostResults['importServers']['plan'] = [];
      for (const [name, entry] of Object.entries(found)) {
        if (servers.some((s) => s.name === name))
          skipped.push({ name, reason: 'a server with this name already exists' });
        else if (!('command' in entry) && !('url' in entry))
          skipped.push({
            name,
            reason: `server "${name}": field "command" is missing (or give "url" for an HTTP server)`,
          });
        else if (!names || names.includes(name)) {
          const runs = 'command' in entry ? [entry.command, ...(entry.args ?? [])].join(' ') : entry.url;
          plan.push({ name, runs, entry, needs: [] });
          if (dryRun) continue;
          imported.push(name);
          servers = [...servers, { name, entry, status: 'connecting', muted: false }];
        }
      }
      if (!dryRun) changed();
      // VS Code's declared `${input:…}` values, as the real host reports them (it asks only for those used).
      const inputs = (doc.inputs ?? []).map(({ id, description, password }) => ({ id, description, password }));
      return { imported, skipped, plan, inputs };
    },
    reconnectServer: ({ name }) => {
      const s = requireServer(name);
      servers = servers.map((v) => (v.name === name ? connected(name, s.entry) : v));
      changed();
      return servers.find((v) => v.name === name)!;
    },
    listCatalog: ({ server }) => {
      requireServer(server);
      return options.catalogs?.[server] ?? EMPTY_CATALOG;
    },
    callTool: ({ server, tool }) => {
      requireServer(server);
      const view: CallView = { callId: `call-${++callCounter}`, server, tool, state: 'running' };
      running.set(view.callId, view);
      // Like the real host: the running update goes out before the reply.
      emit('callUpdated', view);
      return { callId: view.callId };
    },
    cancelCall: ({ callId }) => {
      const view = running.get(callId);
      if (!view) return { cancelled: false };
      running.delete(callId);
      emit('callUpdated', { ...view, state: 'cancelled', error: 'the call was cancelled by the user' });
      return { cancelled: true };
    },
    listQuestions: () => queue.map((q) => structuredClone(q)),
    answerQuestion: ({ questionId }) => {
      if (answerFailure !== null) {
        const message = answerFailure;
        answerFailure = null;
        throw new Error(message);
      }
      const known = queue.some((q) => q.id === questionId) || signIns.some((q) => q.id === questionId);
      if (!known) return { accepted: false };
      queue = queue.filter((q) => q.id !== questionId);
      signIns = signIns.filter((q) => q.id !== questionId);
      emit('questionRemoved', { questionId, reason: 'answered' });
      return { accepted: true };
    },
    listSignIns: () => signIns.map((q) => structuredClone(q)),
    openQuestionUrl: ({ questionId }) => {
      const signIn = signIns.find((x) => x.id === questionId);
      if (signIn) {
        if (signIn.url.blocked) return { opened: false, reason: 'blocked' };
        if (openResult.opened) signIns = signIns.map((x) => (x.id === questionId ? { ...x, waiting: true } : x));
        return openResult;
      }
      const q = queue.find((x) => x.id === questionId);
      if (!q || q.mode !== 'url') return { opened: false, reason: 'no such URL question' };
      if (q.url.blocked) return { opened: false, reason: 'blocked' };
      return openResult;
    },
    muteServer: ({ server, muted }) => {
      requireServer(server);
      servers = servers.map((s) => (s.name === server ? { ...s, muted } : s));
      return changed();
    },
    queryHistory: (filter) => {
      const all = filtered(filter);
      const offset = filter.offset ?? 0;
      const limit = filter.limit ?? 200;
      const entries: HistoryEntryView[] = [];
      for (let i = all.length - 1 - offset; i >= 0 && entries.length < limit; i--) entries.push(all[i]!);
      const found = Math.min(all.length, offset + limit + (options.historyReadAhead ?? Infinity));
      return { total: found, complete: found === all.length, entries };
    },
    exportHistory: ({ filter, format }) => {
      const items = filtered(filter);
      const data =
        format === 'jsonl'
          ? items.map((i) => `${JSON.stringify(i)}\n`).join('')
          : ['seq,ts', ...items.map((i) => `${i.seq},${i.ts}`)].join('\n') + '\n';
      return { data, filename: `countersign-history.${format}` };
    },
    verifyHistory: () => options.historyVerify ?? { ok: true, entries: history.length },
    getSettings: () => settings,
    updateSettings: (patch) => {
      settings = { ...settings, ...patch };
      emit('settingsChanged', settings);
      return settings;
    },
    signIn: ({ server }) => {
      requireServer(server);
      return servers;
    },
    signOut: ({ server }) => {
      requireServer(server);
      servers = servers.map((s) =>
        s.name === server && s.signIn
          ? { ...s, signIn: { needed: true, signedIn: false, storage: s.signIn.storage } }
          : s,
      );
      return { servers: changed(), revoked: true, revocationSupported: true };
    },
    listTasks: () => tasks,
    cancelTask: ({ taskId, questionId }) => {
      const task = tasks.find((t) => t.taskId === taskId);
      if (!task) throw new Error(`no task "${taskId}" is known to this host`);
      // Like the real host: the task's questions are withdrawn with it.
      for (const q of queue.filter((x) => x.origin.task?.taskId === taskId)) {
        queue = queue.filter((x) => x.id !== q.id);
        emit('questionRemoved', {
          questionId: q.id,
          reason: 'call-cancelled',
          note: questionId === q.id ? 'The user cancelled the task from its question.' : 'The task was cancelled.',
        });
      }
      // Like a cooperative server that stops at once.
      const ended: TaskView = { ...task, status: 'cancelled', running: false, endedAt: new Date().toISOString() };
      putTask(ended);
      return ended;
    },
    // The in-memory host frames no apps (the renderer tests never show one).
    openApp: () => ({ app: null }),
    callAppTool: () => {
      throw new Error('that app is not open');
    },
    recordAppEvent: () => ({ recorded: false }),
    openAppLink: () => ({ opened: false, reason: 'that app is not open' }),
    closeApp: () => ({ closed: false }),
    // No ceremony page runs in memory: the list starts empty, and a registration opens nothing.
    listPasskeys: () => passkeys,
    registerPasskey: () => ({ opened: false }),
    revokePasskey: ({ id }) => {
      passkeys = passkeys.map((p) => (p.id === id && !p.revoked ? { ...p, revoked: new Date().toISOString() } : p));
      emit('passkeysChanged', { passkeys });
      return passkeys;
    },
    openQuestionApp: () => {
      throw new Error('this host cannot show MCP Apps');
    },
  };

  // The same generic client the preload and the web client use, over an in-memory transport.
  const api = createHostClient({
    request: async (method, params) => {
      // Deep copies both ways, like a real transport: the UI cannot share objects with the host.
      const copy = params === undefined ? undefined : structuredClone(params);
      calls.push({ method, params: copy, at: performance.now() });
      const failure = failures.get(method);
      if (failure !== undefined) {
        failures.delete(method);
        throw errorFromWire(typeof failure === 'string' ? { message: failure } : failure);
      }
      const result = (handlers[method] as (p: unknown) => unknown)(copy ?? {});
      return structuredClone(result);
    },
    listen: (emitToClient) => {
      deliver = emitToClient;
    },
  });

  return {
    api,
    calls,
    push(question) {
      queue.push(question);
      emit('questionAdded', question);
    },
    pushSignIn(question) {
      signIns.push(question);
      emit('signInAdded', question);
    },
    withdraw(questionId, reason, note) {
      queue = queue.filter((q) => q.id !== questionId);
      signIns = signIns.filter((q) => q.id !== questionId);
      emit('questionRemoved', note === undefined ? { questionId, reason } : { questionId, reason, note });
    },
    waiting: () => [...queue],
    setOpenResult(result) {
      openResult = result;
    },
    failNextAnswer(message) {
      answerFailure = message;
    },
    failNext(method, error) {
      failures.set(method, error);
    },
    emit,
    setServers(views) {
      servers = structuredClone(views);
      changed();
    },
    runningCalls: () => [...running.values()],
    finishCall(callId, outcome) {
      const view = running.get(callId);
      if (!view) throw new Error(`no running call ${callId}`);
      running.delete(callId);
      emit(
        'callUpdated',
        'result' in outcome
          ? {
              ...view,
              state: 'complete',
              result: outcome.result,
              ...(outcome.lastAnswer ? { lastAnswer: outcome.lastAnswer } : {}),
            }
          : { ...view, state: 'error', error: outcome.error },
      );
    },
    appendHistory(item) {
      history.push(item);
      emit('historyAppended', { seq: item.seq });
    },
    putTask: (task) => putTask(structuredClone(task)),
  };
}
