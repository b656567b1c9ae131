// Everything between an input request from a server and the human: build the
// Question (with who asks and why), refuse what cannot be shown safely (a
// nested or $ref schema, an undeclared request kind), ask through the one
// Prompter, check the answer against the schema, and record it (write-ahead)
// before handing it back for sending. Every path (the app's own calls, the
// CLI, gateway questions relayed to the app) goes through this one gate, so
// a rule added here holds everywhere; the input limits (../limits) live here too.
import { randomUUID } from 'node:crypto';
import { appFormHint } from '../../../shared/elicitation/app-form';
import { checkFlatSchema } from '../../../shared/elicitation/schema-rules';
import { validateAnswer } from '../../../shared/elicitation/validate-answer';
import type { Answer, CallMethod, Question, QuestionOrigin } from '../../../shared/elicitation/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import type { CallContext, HostObserver, StateDigest } from '../events';
import { HostError, isHostError, messageOf } from '../host-error';
import { LIMITS } from '../limits';
import type { PasskeyGuard } from '../passkeys/passkey-guard';
import type { Receipt } from '../passkeys/receipt';
import type { PasskeyRecordBody } from '../../../shared/history/journal-types';
import type { Prompter, PrompterAnswer } from './prompter';

/** What a server asked, in elicitation/create params shape (both eras), unchecked: buildQuestion checks it. */
export interface ElicitParams {
  mode?: unknown;
  message?: unknown;
  requestedSchema?: unknown;
  url?: unknown;
  elicitationId?: unknown;
  /** A form's app hint lives here (SEP-3118, `_meta.ui.resourceUri`); nothing else of it is read. */
  _meta?: unknown;
}

/** Everything the gate needs to know about where a question came from. */
export interface AskContext {
  call: CallContext | null;
  server: string;
  era: 'modern' | 'legacy';
  round: number;
  key: string;
  requestState?: StateDigest;
  /** The question's place in a round of several (see QuestionOrigin.roundPosition). */
  roundPosition?: { index: number; count: number; keys: string[]; roundId?: string };
  /** This is the last round the round limit allows (QuestionOrigin.lastRound). */
  lastRound?: boolean;
  /** The task that asks, when the call became one. */
  task?: { taskId: string; startedAt: string };
  /**
   * Labels a gateway relayed with the question: the app did not see the
   * server or the call itself, so the question is marked "reported by the
   * gateway" wherever these labels are shown or kept.
   */
  reported?: {
    method: CallMethod | null;
    name: string | null;
    argumentsSummary?: string;
    agent?: string;
    /** The gateway's own question time limit, shown (and kept) when the app sets none. */
    timeLimitMinutes?: number;
  };
}

/** Problems as one sentence: "a: x; b: y." (each problem's own full stop would read "x.; b"). */
export function problemList(problems: readonly string[]): string {
  return `${problems.map((p) => p.replace(/\.+$/, '')).join('; ')}.`;
}

/** Control characters could forge extra lines in a dialog or a log. */
function oneLine(text: string, maxLength: number): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return clean.length > maxLength ? `${clean.slice(0, maxLength - 1)}…` : clean;
}

/** A short, single-line, safe summary of call arguments for dialogs. */
export function summariseArguments(args: Record<string, unknown> | undefined, maxLength = 120): string | undefined {
  if (!args || Object.keys(args).length === 0) return undefined;
  const parts = Object.entries(args).map(([k, v]) => {
    const value = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
    return `${k}=${value}`;
  });
  return oneLine(parts.join(', '), maxLength);
}

function tooLarge(ctx: AskContext, what: string, size: number, limit: number): HostError {
  return new HostError(
    'invalid-schema',
    `server "${ctx.server}" sent a question (key "${ctx.key}") whose ${what} is ${size} characters, ` +
      `over the host's limit of ${limit}; it was not shown`,
    { key: ctx.key, limit },
  );
}

/** A mode the gate does not know, as its sentence names it: a short quoted string, or only its type. */
function modeLabel(mode: unknown): string {
  if (typeof mode !== 'string') return `(a ${mode === null ? 'null' : typeof mode} value)`;
  return JSON.stringify(mode.length > 40 ? `${mode.slice(0, 39)}…` : mode);
}

/** Characters of `schema` as JSON; undefined when it is nested too deeply to serialise (a hostile peer's). */
function serialisedLength(schema: unknown): number | undefined {
  try {
    return JSON.stringify(schema ?? null)?.length ?? 0;
  } catch {
    return undefined;
  }
}

/** Turn elicitation params into a Question, or throw invalid-schema. */
export function buildQuestion(params: ElicitParams, ctx: AskContext): Question {
  const reported = ctx.reported;
  const origin: QuestionOrigin = {
    server: ctx.server,
    era: ctx.era,
    method: ctx.call?.method ?? reported?.method ?? null,
    name: ctx.call?.name ?? reported?.name ?? null,
    round: ctx.round,
    key: ctx.key,
  };
  if (ctx.roundPosition && ctx.roundPosition.count > 1) origin.roundPosition = ctx.roundPosition;
  if (ctx.lastRound) origin.lastRound = true;
  if (ctx.task) origin.task = { taskId: ctx.task.taskId, startedAt: ctx.task.startedAt };
  if (ctx.call?.toolHints) origin.toolHints = { ...ctx.call.toolHints };
  const summary =
    summariseArguments(ctx.call?.arguments) ??
    (reported?.argumentsSummary !== undefined ? oneLine(reported.argumentsSummary, 120) : undefined);
  if (summary) origin.argumentsSummary = summary;
  const agent = ctx.call?.agent ?? reported?.agent;
  if (agent !== undefined) origin.agent = oneLine(agent, 200);
  if (reported) origin.reportedBy = 'gateway';
  const message = typeof params.message === 'string' ? params.message : '';
  if (message.length > LIMITS.messageChars) throw tooLarge(ctx, 'message', message.length, LIMITS.messageChars);
  const id = randomUUID();
  const mode = params.mode ?? 'form';
  if (mode === 'url') {
    if (typeof params.url !== 'string' || params.url === '') {
      throw new HostError(
        'invalid-schema',
        `server "${ctx.server}" sent a URL question (key "${ctx.key}") without a url`,
        { key: ctx.key },
      );
    }
    if (params.url.length > LIMITS.urlChars) throw tooLarge(ctx, 'link', params.url.length, LIMITS.urlChars);
    return { id, mode: 'url', origin, message, url: analyzeUrl(params.url) };
  }
  if (mode !== 'form') {
    throw new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a question in unknown mode ${modeLabel(mode)} (key "${ctx.key}")`,
      { key: ctx.key },
    );
  }
  const schemaChars = serialisedLength(params.requestedSchema);
  if (schemaChars === undefined) {
    throw new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a form nested too deeply to read (key "${ctx.key}")`,
      {
        key: ctx.key,
      },
    );
  }
  if (schemaChars > LIMITS.schemaChars) throw tooLarge(ctx, 'form schema', schemaChars, LIMITS.schemaChars);
  const checked = checkFlatSchema(params.requestedSchema);
  if (!checked.ok) {
    const detail = problemList(checked.errors.map((p) => `${p.path || '(schema)'}: ${p.message}`));
    throw new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a form the host cannot show safely (key "${ctx.key}"): ${detail}`,
      {
        key: ctx.key,
        problems: checked.errors,
      },
    );
  }
  const app = appFormHint(params);
  return { id, mode: 'form', origin, message, requestedSchema: checked.schema, ...(app ? { appForm: app } : {}) };
}

/** Refuse answers that would send something the human did not approve. */
export function checkAnswer(question: Question, answer: Answer): Answer {
  if (answer.action !== 'accept') return { action: answer.action };
  if (question.mode === 'url') {
    if (question.url.blocked) {
      throw new HostError(
        'invalid-answer',
        `the link for question "${question.origin.key}" is blocked ` +
          `(${question.url.warnings.map((w) => w.code).join(', ')}); it cannot be accepted`,
      );
    }
    // URL mode carries no content: accept only says the user consented.
    return { action: 'accept' };
  }
  const content = answer.content ?? {};
  const verdict = validateAnswer(question.requestedSchema, content);
  if (!verdict.ok) {
    const detail = problemList(verdict.errors.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)));
    throw new HostError('invalid-answer', `answer to "${question.origin.key}" does not match the form: ${detail}`, {
      problems: verdict.errors,
    });
  }
  return { action: 'accept', content };
}

/**
 * Questions waiting for the human right now, per server (LIMITS.pendingPerServer),
 * kept per prompter: every gate that asks through the same prompter (in the app:
 * its own Host's and the approval server's, for gateway questions) shares one
 * count, so a server reached directly and through gateways still has at most
 * the limit waiting, not the limit once per gate.
 */
const openByPrompter = new WeakMap<Prompter, Map<string, number>>();

function openCounts(prompter: Prompter): Map<string, number> {
  let counts = openByPrompter.get(prompter);
  if (!counts) {
    counts = new Map();
    openByPrompter.set(prompter, counts);
  }
  return counts;
}

/**
 * The time limit a question gets: the stricter of the user's Settings in the
 * app and the limit its gateway reported (that gateway's copy of the same
 * setting, read when it started). 0 (or absent) is "none", so the other one
 * applies; both 0: no timer runs. Stricter is safe: a timeout only ever
 * cancels, it never answers.
 */
export function effectiveTimeLimit(settingMinutes: number, reportedMinutes?: number): number {
  const limits = [settingMinutes, reportedMinutes ?? 0].filter((m) => m > 0);
  return limits.length > 0 ? Math.min(...limits) : 0;
}

/** What asking a question gives back: the (recorded) answer to send, and how it came about. */
export interface GateAnswer {
  answer: Answer;
  decided: PrompterAnswer;
  /** The person's passkey confirmed this accept: the receipt goes with the answer to a server that asks for it. */
  receipt?: Receipt;
}

/**
 * What every call path asks its questions through (a round's inputRequests, a
 * legacy elicitation, a task's questions). Two kinds: the QuestionGate below,
 * where the human sits in this process (the app, the CLI), and the gateway's
 * RemoteQuestions (../approval/remote-questions.ts), which hands the server's
 * question as it came to the app's QuestionGate: one builder and one checker.
 */
export interface QuestionAsker {
  /** Whether a round's questions may be asked all at once (see Prompter.asksRoundsTogether). */
  readonly asksRoundsTogether: boolean;
  /** Ask a question built from `params`; resolves with the (recorded) answer to send. */
  ask(params: ElicitParams, ctx: AskContext, signal: AbortSignal): Promise<GateAnswer>;
  /** Refuse a batch over `limit` before any question of it is asked: recorded as a fault, thrown. */
  checkCount(call: CallContext | null, server: string, count: number, limit: number, what: string): Promise<void>;
  /** Report a host-side fault to observers. */
  fault(call: CallContext | null, error: HostError, question?: Question): Promise<void>;
}

/** Everything a Host gives the asker it makes (HostOptions.questions). */
export interface QuestionAskerDeps {
  observer: HostObserver;
  isMuted: (server: string) => boolean;
  /** The user's limit on a question's time in minutes; 0: none. */
  timeLimitMinutes: () => number;
  /** The passkey step of accepts that need one (Settings → Passkeys); absent: none ever does. */
  passkeys?: PasskeyGuard;
}

/** The faults every asker reports the same way. */
export async function reportFault(
  observer: HostObserver,
  call: CallContext | null,
  error: HostError,
  question?: Question,
): Promise<void> {
  await observer.fault?.({
    call,
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(question ? { question } : {}),
    at: new Date().toISOString(),
  });
}

/** A batch over its limit, refused before any question of it is asked. */
export async function refuseOverLimit(
  observer: HostObserver,
  call: CallContext | null,
  server: string,
  count: number,
  limit: number,
  what: string,
): Promise<void> {
  if (count <= limit) return;
  const error = new HostError(
    'protocol',
    `server "${server}" sent ${count} ${what}, over the host's limit of ${limit}; nothing more was asked`,
    { count, limit },
  );
  await reportFault(observer, call, error);
  throw error;
}

/** Asks questions through one prompter and reports each step to observers. */
export class QuestionGate implements QuestionAsker {
  /** Questions waiting for the human right now, per server, shared by every gate on this prompter. */
  private readonly open: Map<string, number>;

  constructor(
    private readonly prompter: Prompter,
    private readonly observer: HostObserver,
    private readonly isMuted: (server: string) => boolean = () => false,
    /** The user's limit on a question's time in minutes (Settings → Question time limit); 0: none. */
    private readonly timeLimitMinutes: () => number = () => 0,
    /** The passkey step of accepts that need one. */
    private readonly passkeys?: PasskeyGuard,
  ) {
    this.open = openCounts(prompter);
  }

  /** Whether a round's questions may be asked all at once (see Prompter.asksRoundsTogether). */
  get asksRoundsTogether(): boolean {
    return this.prompter.asksRoundsTogether === true;
  }

  /** Ask a question built from `params`; resolves with the (recorded) answer to send. */
  async ask(params: ElicitParams, ctx: AskContext, signal: AbortSignal): Promise<GateAnswer & { question: Question }> {
    let question: Question;
    try {
      question = buildQuestion(params, ctx);
      const limit = effectiveTimeLimit(this.timeLimitMinutes(), ctx.reported?.timeLimitMinutes);
      if (limit > 0) question.origin.timeLimitMinutes = limit;
    } catch (error) {
      if (error instanceof HostError) await this.fault(ctx.call, error);
      throw error;
    }
    const waiting = this.open.get(ctx.server) ?? 0;
    if (waiting >= LIMITS.pendingPerServer) {
      const error = new HostError(
        'protocol',
        `server "${ctx.server}" already has ${waiting} questions waiting for the user ` +
          `(the host's limit is ${LIMITS.pendingPerServer}); this one was not shown`,
        { key: ctx.key, limit: LIMITS.pendingPerServer },
      );
      await this.fault(ctx.call, error);
      throw error;
    }
    // The slot is taken before the first await, so questions arriving together are counted together.
    this.open.set(ctx.server, waiting + 1);
    let decided: PrompterAnswer;
    try {
      await this.observer.questionAsked?.({
        call: ctx.call,
        question,
        askedAt: new Date().toISOString(),
        ...(ctx.requestState ? { requestState: ctx.requestState } : {}),
      });
      if (this.isMuted(ctx.server)) {
        decided = { answer: { action: 'cancel' }, decidedBy: 'mute-rule' };
      } else {
        const limit = question.origin.timeLimitMinutes;
        // No timer runs while a human decides unless the user set one.
        const clock = limit ? timeLimit(limit) : undefined;
        try {
          decided = await this.prompter.ask(question, clock ? AbortSignal.any([signal, clock.signal]) : signal);
        } catch (error) {
          if (clock?.signal.aborted && !signal.aborted) {
            decided = {
              answer: { action: 'cancel' },
              decidedBy: 'timeout',
              decidedByDetail: `timed out after ${limit} min (Settings → Question time limit)`,
            };
          } else if (signal.aborted) {
            await this.record(ctx, question, cancelledBy(signal.reason, question));
            throw new HostError('cancelled', 'the call was cancelled while a question was open');
          } else throw error;
        } finally {
          clock?.dispose();
        }
      }
    } finally {
      const left = (this.open.get(ctx.server) ?? 1) - 1;
      if (left > 0) this.open.set(ctx.server, left);
      else this.open.delete(ctx.server);
    }
    if (signal.aborted) {
      // The call ended while the answer was on its way: it is never sent.
      await this.record(ctx, question, {
        answer: { action: 'cancel' },
        decidedBy: 'call-cancelled',
        decidedByDetail: messageOf(signal.reason),
      });
      throw new HostError('cancelled', 'the call ended before the answer could be sent');
    }
    let answer: Answer;
    try {
      answer = checkAnswer(question, decided.answer);
    } catch (error) {
      // Never sent; reported with its question, so a log of questions lists it as refused.
      if (error instanceof HostError) await this.fault(ctx.call, error, question);
      throw error;
    }
    const reason = answer.action === 'accept' ? this.passkeys?.requirement(question) : undefined;
    if (reason !== undefined) return this.confirmWithPasskey(ctx, question, answer, decided, reason, signal);
    await this.record(ctx, question, { ...decided, answer });
    return { question, answer, decided };
  }

  /** The accept needs the person's passkey: it goes out only confirmed (or as the recorded fallback). */
  private async confirmWithPasskey(
    ctx: AskContext,
    question: Question,
    answer: Answer,
    decided: PrompterAnswer,
    reason: string,
    signal: AbortSignal,
  ): Promise<GateAnswer & { question: Question }> {
    const call = ctx.call;
    let outcome;
    try {
      outcome = await this.passkeys!.confirm(
        question,
        answer,
        {
          server: ctx.server,
          tool: call?.name ?? ctx.reported?.name ?? question.origin.name ?? '',
          arguments: call?.arguments ?? null,
          ...(call?.argumentsOmitted ? { argumentsUnknown: true } : {}),
          ...(ctx.requestState ? { requestStateSha256: ctx.requestState.sha256 } : {}),
        },
        reason,
        this.prompter,
        signal,
      );
    } catch (error) {
      if (signal.aborted) {
        await this.record(ctx, question, cancelledBy(signal.reason, question), {
          status: 'cancelled',
          reason,
          detail: 'the call ended during the passkey step',
        });
        throw new HostError('cancelled', 'the call ended during the passkey step; nothing was sent');
      }
      if (error instanceof HostError) await this.fault(ctx.call, error, question);
      throw error;
    }
    if (outcome.status === 'refused') {
      await this.fault(ctx.call, outcome.error, question);
      throw outcome.error;
    }
    if (outcome.status === 'cancelled') {
      // A cancel is what goes out: the person's own at the passkey step, or the app's closing (recorded as such).
      const cancelled: PrompterAnswer = { ...outcome.ended, answer: { action: 'cancel' } };
      await this.record(ctx, question, cancelled, outcome.record);
      return { question, answer: cancelled.answer, decided: cancelled };
    }
    await this.record(ctx, question, { ...decided, answer }, outcome.record);
    return { question, answer, decided, ...(outcome.status === 'confirmed' ? { receipt: outcome.receipt } : {}) };
  }

  private async record(
    ctx: AskContext,
    question: Question,
    decided: PrompterAnswer,
    passkey?: PasskeyRecordBody,
  ): Promise<void> {
    await this.observer.answerRecorded?.({
      call: ctx.call,
      question,
      answer: decided.answer,
      decidedBy: decided.decidedBy,
      ...(decided.decidedByDetail ? { decidedByDetail: decided.decidedByDetail } : {}),
      ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
      answeredAt: new Date().toISOString(),
      ...(ctx.requestState ? { requestState: ctx.requestState } : {}),
      ...(passkey ? { passkey } : {}),
    });
  }

  /**
   * Refuse a batch of questions over `limit` before any is asked (a round's
   * inputRequests, a legacy call's elicitations): recorded as a fault, thrown.
   */
  checkCount(call: CallContext | null, server: string, count: number, limit: number, what: string): Promise<void> {
    return refuseOverLimit(this.observer, call, server, count, limit, what);
  }

  /** Report a host-side fault to observers. */
  fault(call: CallContext | null, error: HostError, question?: Question): Promise<void> {
    return reportFault(this.observer, call, error, question);
  }
}

/**
 * How a question the call's cancel took away is recorded: the human's own
 * decision when they cancelled its task from this question's dialog ("Cancel
 * task"), otherwise the call's cancel.
 */
function cancelledBy(reason: unknown, question: Question): PrompterAnswer {
  const byHuman = isHostError(reason, 'cancelled') && reason.details?.questionId === question.id;
  return {
    answer: { action: 'cancel' },
    decidedBy: byHuman ? 'human' : 'call-cancelled',
    decidedByDetail: messageOf(reason),
  };
}

/** The user's limit on one question: aborts (with a HostError saying so) after `minutes`. */
function timeLimit(minutes: number): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new HostError('cancelled', `nobody answered within ${minutes} min (Settings → Question time limit)`, {
          timedOut: true,
          minutes,
        }),
      ),
    minutes * 60_000,
  );
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}
