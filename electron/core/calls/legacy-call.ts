// A call on a legacy (2025-11-25 and older) connection. Questions arrive as
// server-to-client `elicitation/create` requests while the call runs (the
// host's LegacyInputHooks route them through the same gate). URL-mode
// interactions may also arrive as error -32042 with `data.elicitations`: the
// host asks for consent and retries the call when the human says "I'm done,
// continue" (the server's notifications/elicitation/complete is optional).
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { CallMethod } from '../../../shared/elicitation/types';
import type { CallContext } from '../events';
import { HostError } from '../host-error';
import { LIMITS } from '../limits';
import type { QuestionAsker } from '../prompter/question-gate';
import { abortableSleep } from './abortable-sleep';
import { NO_SDK_TIMEOUT_MS, QuestionAwareDeadline, SDK_DEFAULT_REQUEST_TIMEOUT_MS } from './question-aware-deadline';
import { translateSdkError, type LoopResult } from './input-required-loop';
import { RESULT_SCHEMAS } from './result-schemas';
import { vouchedAs } from '../../../shared/vouched-as';

/** The legacy URLElicitationRequired error code. */
export const URL_ELICITATION_REQUIRED = -32042;

/** Tracks `notifications/elicitation/complete` per connection. */
export class ElicitationCompletions {
  /** Ids a running call waits for (from its -32042 error), with how many calls expect each. */
  private readonly expected = new Map<string, number>();
  private readonly done = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();

  /**
   * Say which ids a call is about to wait for, before it asks the human (the server
   * may report one complete before the call starts waiting). Completions of any
   * other id are dropped: a server could otherwise send unknown ids without end.
   * Call the returned function when the call stops waiting: it forgets them again.
   */
  expect(ids: readonly string[]): () => void {
    for (const id of ids) this.expected.set(id, (this.expected.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) {
        const n = (this.expected.get(id) ?? 1) - 1;
        if (n > 0) {
          this.expected.set(id, n);
          continue;
        }
        this.expected.delete(id);
        this.done.delete(id);
        this.waiters.delete(id);
      }
    };
  }

  /** Record a completion, if some call expects that id. */
  complete(id: string): void {
    if (!this.expected.has(id)) return;
    this.done.add(id);
    for (const w of this.waiters.get(id) ?? []) w();
    this.waiters.delete(id);
  }

  /** Resolve true once `id` completed, false on timeout; reject on abort. */
  async wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.done.has(id)) return true;
    let wake!: () => void;
    const completed = new Promise<true>((resolve) => {
      wake = () => resolve(true);
      const list = this.waiters.get(id) ?? [];
      list.push(wake);
      this.waiters.set(id, list);
    });
    const timedOut = abortableSleep(timeoutMs, signal).then(() => false as const);
    try {
      return await Promise.race([completed, timedOut]);
    } finally {
      // A waiter that timed out or was aborted is not kept either.
      const list = this.waiters.get(id)?.filter((w) => w !== wake);
      if (list?.length) this.waiters.set(id, list);
      else this.waiters.delete(id);
    }
  }

  /** How many ids are held (expected, completed, waited for): bounded by the calls running. */
  get size(): { expected: number; done: number; waiters: number } {
    return { expected: this.expected.size, done: this.done.size, waiters: this.waiters.size };
  }
}

export interface LegacyCallOptions {
  maxRounds: number;
  signal: AbortSignal;
  /** The server's own time per attempt (questions open meanwhile do not count). Default: the SDK's 60 s. */
  requestTimeoutMs?: number;
  /**
   * Called before each attempt so questions pushed during it get its round
   * number and can stop the attempt's clock while they are open.
   */
  onAttempt(round: number, deadline: QuestionAwareDeadline): void;
}

/** Result the host returns when a legacy URL interaction was refused: nothing ran. */
function refusedResult(action: 'decline' | 'cancel'): Record<string, unknown> {
  const who = action === 'decline' ? 'declined' : 'cancelled (dialog dismissed)';
  return {
    content: [
      { type: 'text', text: `The server needs the user to open a link first; the user ${who}, so nothing was done.` },
    ],
    isError: true,
    _meta: { 'io.countersign/host-generated': true },
  };
}

/** Run a legacy-era call; elicitation/create requests are answered by the hooks meanwhile. */
export async function runLegacyCall(
  client: Client,
  method: CallMethod,
  params: Record<string, unknown>,
  call: CallContext,
  gate: QuestionAsker,
  completions: ElicitationCompletions,
  options: LegacyCallOptions,
): Promise<LoopResult> {
  const clean = Object.fromEntries(
    Object.entries(params).filter(([k]) => k !== 'inputResponses' && k !== 'requestState'),
  );
  let rounds = 0;
  for (;;) {
    const deadline = new QuestionAwareDeadline(options.requestTimeoutMs ?? SDK_DEFAULT_REQUEST_TIMEOUT_MS);
    options.onAttempt(rounds + 1, deadline);
    try {
      // The SDK's own timer would count the human's time (questions arrive
      // inside this request): the host's deadline replaces it. The SDK types
      // request() per known method; RESULT_SCHEMAS[method] checks what comes back.
      const result = await client
        .request(vouchedAs({ method, params: clean }), RESULT_SCHEMAS[method], {
          signal: AbortSignal.any([options.signal, deadline.signal]),
          timeout: NO_SDK_TIMEOUT_MS,
        })
        .finally(() => deadline.dispose());
      return { result: result, rounds };
    } catch (error) {
      if (deadline.signal.aborted && !options.signal.aborted) throw deadline.signal.reason;
      if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED)
        throw translateSdkError(error, options.signal);
      rounds += 1;
      if (rounds > options.maxRounds) {
        throw new HostError(
          'round-limit',
          `server "${call.server}" still required URL interactions after ${options.maxRounds} rounds of ${method} ` +
            `"${call.name}"; the call was stopped`,
          { maxRounds: options.maxRounds },
        );
      }
      const data = error.data as { elicitations?: unknown } | undefined;
      const list = Array.isArray(data?.elicitations) ? (data.elicitations as Array<Record<string, unknown>>) : [];
      if (list.length === 0)
        throw new HostError('protocol', `server "${call.server}" sent error -32042 without data.elicitations`);
      await gate.checkCount(call, call.server, list.length, LIMITS.questionsPerRound, 'link interactions in one round');
      const release = completions.expect(
        list.map((el) => el.elicitationId).filter((id): id is string => typeof id === 'string'),
      );
      try {
        for (const [i, el] of list.entries()) {
          const key = typeof el.elicitationId === 'string' ? el.elicitationId : `url-${i + 1}`;
          const { answer } = await gate.ask(
            { ...el, mode: 'url' },
            { call, server: call.server, era: 'legacy', round: rounds, key },
            options.signal,
          );
          if (answer.action !== 'accept') return { result: refusedResult(answer.action), rounds };
        }
        // The human said "I'm done, continue" (that is when a URL question is
        // accepted): their word is enough to retry. The server's
        // notifications/elicitation/complete is optional, so the host never
        // waits for it; one that arrives meanwhile changes nothing.
      } finally {
        release();
      }
    }
  }
}
