// A complete HostApi living in the page: a real in-memory question queue that
// records every call. It backs the browser harness (Playwright pushes
// questions and reads what reached the API) and the component tests.
// Never used by the shipped app's entry point.
import type { Question } from '../../../shared/elicitation/types';
import type {
  HostApi,
  HostEventName,
  HostEvents,
  HostMethodName,
  HostParams,
  HostResults,
  ServerView,
  Settings,
} from '../../../shared/host-api/contract';

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
  /** The host takes a question away for a reason other than an answer. */
  withdraw(questionId: string, reason: HostEvents['questionRemoved']['reason'], note?: string): void;
  /** Questions still waiting on the host side. */
  waiting(): Question[];
  /** What the next openQuestionUrl calls resolve to. */
  setOpenResult(result: HostResults['openQuestionUrl']): void;
  /** Makes the next answerQuestion call reject with this message (simulates a broken transport). */
  failNextAnswer(message: string): void;
  /** Emits any host event. */
  emit<E extends HostEventName>(event: E, payload: HostEvents[E]): void;
}

/** Options for a fresh in-memory host. */
export interface InMemoryHostOptions {
  settings?: Partial<Settings>;
  servers?: string[];
  questions?: Question[];
}

/** Creates an in-memory host. */
export function createInMemoryHost(options: InMemoryHostOptions = {}): InMemoryHost {
  const calls: HostCall[] = [];
  const listeners = new Map<HostEventName, Set<(payload: never) => void>>();
  let queue: Question[] = [...(options.questions ?? [])];
  let settings: Settings = { maxRounds: 10, language: 'system', theme: 'system', redactHistory: false, ...options.settings };
  let openResult: HostResults['openQuestionUrl'] = { opened: true };
  let answerFailure: string | null = null;

  const emit = <E extends HostEventName>(event: E, payload: HostEvents[E]) => {
    for (const l of [...(listeners.get(event) ?? [])]) (l as (p: HostEvents[E]) => void)(payload);
  };
  const serverViews = (): ServerView[] =>
    (options.servers ?? []).map((name) => ({ name, entry: { command: name }, status: 'connected', muted: false }));

  const handlers: { [M in HostMethodName]: (params: HostParams<M>) => HostResults[M] } = {
    listServers: () => serverViews(),
    addServer: () => serverViews(),
    updateServer: () => serverViews(),
    removeServer: () => serverViews(),
    importServers: () => ({ imported: [], skipped: [] }),
    reconnectServer: ({ name }) => ({ name, entry: { command: name }, status: 'connected', muted: false }),
    listCatalog: () => ({ tools: [], prompts: [], resources: [] }),
    callTool: () => ({ callId: `call-${calls.length}` }),
    cancelCall: () => ({ cancelled: false }),
    listQuestions: () => queue.map((q) => structuredClone(q)),
    answerQuestion: ({ questionId }) => {
      if (answerFailure !== null) {
        const message = answerFailure;
        answerFailure = null;
        throw new Error(message);
      }
      const known = queue.some((q) => q.id === questionId);
      if (!known) return { accepted: false };
      queue = queue.filter((q) => q.id !== questionId);
      emit('questionRemoved', { questionId, reason: 'answered' });
      return { accepted: true };
    },
    openQuestionUrl: ({ questionId }) => {
      const q = queue.find((x) => x.id === questionId);
      if (!q || q.mode !== 'url') return { opened: false, reason: 'no such URL question' };
      if (q.url.blocked) return { opened: false, reason: 'blocked' };
      return openResult;
    },
    muteServer: () => serverViews(),
    queryHistory: () => ({ total: 0, entries: [] }),
    exportHistory: () => ({ data: '', filename: 'history.jsonl' }),
    getSettings: () => settings,
    updateSettings: (patch) => {
      settings = { ...settings, ...patch };
      emit('settingsChanged', settings);
      return settings;
    },
  };

  const api = { on: undefined as unknown } as Record<string, unknown>;
  for (const method of Object.keys(handlers) as HostMethodName[]) {
    api[method] = async (params: unknown) => {
      // Deep copies both ways, like a real transport: the UI cannot share objects with the host.
      const copy = params === undefined ? undefined : structuredClone(params);
      calls.push({ method, params: copy, at: performance.now() });
      const result = (handlers[method] as (p: unknown) => unknown)(copy ?? {});
      return structuredClone(result);
    };
  }
  api.on = (event: HostEventName, listener: (payload: never) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };

  return {
    api: api as unknown as HostApi,
    calls,
    push(question) {
      queue.push(question);
      emit('questionAdded', structuredClone(question));
    },
    withdraw(questionId, reason, note) {
      queue = queue.filter((q) => q.id !== questionId);
      emit('questionRemoved', note === undefined ? { questionId, reason } : { questionId, reason, note });
    },
    waiting: () => [...queue],
    setOpenResult(result) {
      openResult = result;
    },
    failNextAnswer(message) {
      answerFailure = message;
    },
    emit,
  };
}
