// Everything between an input request from a server and the human: build the
// Question (with who asks and why), refuse what cannot be shown safely (a
// nested or $ref schema, an undeclared request kind), ask through the one
// Prompter, check the answer against the schema, and record it (write-ahead)
// before handing it back for sending.
import { randomUUID } from 'node:crypto';
import { checkFlatSchema } from '../../../shared/elicitation/schema-rules';
import { validateAnswer } from '../../../shared/elicitation/validate-answer';
import type { Answer, Question, QuestionOrigin } from '../../../shared/elicitation/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import type { CallContext, HostObserver, StateDigest } from '../events';
import { HostError, messageOf } from '../host-error';
import type { Prompter, PrompterAnswer } from './prompter';

/** What a server asked, in elicitation/create params shape (both eras). */
export interface ElicitParams {
  mode?: string;
  message?: unknown;
  requestedSchema?: unknown;
  url?: unknown;
  elicitationId?: unknown;
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
  roundPosition?: { index: number; count: number; keys: string[] };
  /** The task that asks, when the call became one. */
  task?: { taskId: string; startedAt: string };
}

/** A short, single-line, safe summary of call arguments for dialogs. */
export function summariseArguments(args: Record<string, unknown> | undefined, maxLength = 120): string | undefined {
  if (!args || Object.keys(args).length === 0) return undefined;
  const parts = Object.entries(args).map(([k, v]) => {
    const value = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
    return `${k}=${value}`;
  });
  // Control characters could forge extra lines in a dialog or a log.
  const text = parts.join(', ').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Turn elicitation params into a Question, or throw invalid-schema. */
export function buildQuestion(params: ElicitParams, ctx: AskContext): Question {
  const origin: QuestionOrigin = {
    server: ctx.server,
    era: ctx.era,
    method: ctx.call?.method ?? null,
    name: ctx.call?.name ?? null,
    round: ctx.round,
    key: ctx.key,
  };
  if (ctx.roundPosition && ctx.roundPosition.count > 1) origin.roundPosition = ctx.roundPosition;
  if (ctx.task) origin.task = { taskId: ctx.task.taskId, startedAt: ctx.task.startedAt };
  const summary = summariseArguments(ctx.call?.arguments);
  if (summary) origin.argumentsSummary = summary;
  const message = typeof params.message === 'string' ? params.message : '';
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
    return { id, mode: 'url', origin, message, url: analyzeUrl(params.url) };
  }
  if (mode !== 'form') {
    throw new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a question in unknown mode ${JSON.stringify(mode)} (key "${ctx.key}")`,
      { key: ctx.key },
    );
  }
  const checked = checkFlatSchema(params.requestedSchema);
  if (!checked.ok) {
    const detail = checked.errors.map((p) => `${p.path || '(schema)'}: ${p.message}`).join('; ');
    throw new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a form the host cannot show safely (key "${ctx.key}"): ${detail}`,
      {
        key: ctx.key,
        problems: checked.errors,
      },
    );
  }
  return { id, mode: 'form', origin, message, requestedSchema: checked.schema };
}

/** Refuse answers that would send something the human did not approve. */
export function checkAnswer(question: Question, answer: Answer): Answer {
  if (answer.action !== 'accept') return { action: answer.action };
  if (question.mode === 'url') {
    if (question.url.blocked) {
      throw new HostError(
        'invalid-answer',
        `the link for question "${question.origin.key}" is blocked (${question.url.warnings.map((w) => w.code).join(', ')}); it cannot be accepted`,
      );
    }
    // URL mode carries no content: accept only says the user consented.
    return { action: 'accept' };
  }
  const content = answer.content ?? {};
  const verdict = validateAnswer(question.requestedSchema, content);
  if (!verdict.ok) {
    const detail = verdict.errors.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ');
    throw new HostError('invalid-answer', `answer to "${question.origin.key}" does not match the form: ${detail}`, {
      problems: verdict.errors,
    });
  }
  return { action: 'accept', content };
}

/** Asks questions through one prompter and reports each step to observers. */
export class QuestionGate {
  constructor(
    private readonly prompter: Prompter,
    private readonly observer: HostObserver,
    private readonly isMuted: (server: string) => boolean = () => false,
    /** The user's limit on a question's time in minutes (Settings → Question time limit); 0: none. */
    private readonly timeLimitMinutes: () => number = () => 0,
  ) {}

  /** Ask a question built from `params`; resolves with the (recorded) answer to send. */
  async ask(
    params: ElicitParams,
    ctx: AskContext,
    signal: AbortSignal,
  ): Promise<{ question: Question; answer: Answer; decided: PrompterAnswer }> {
    let question: Question;
    try {
      question = buildQuestion(params, ctx);
      const limit = this.timeLimitMinutes();
      if (limit > 0) question.origin.timeLimitMinutes = limit;
    } catch (error) {
      if (error instanceof HostError) await this.fault(ctx.call, error);
      throw error;
    }
    await this.observer.questionAsked?.({
      call: ctx.call,
      question,
      askedAt: new Date().toISOString(),
      ...(ctx.requestState ? { requestState: ctx.requestState } : {}),
    });

    let decided: PrompterAnswer;
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
          await this.record(ctx, question, {
            answer: { action: 'cancel' },
            decidedBy: 'call-cancelled',
            decidedByDetail: messageOf(signal.reason),
          });
          throw new HostError('cancelled', 'the call was cancelled while a question was open');
        } else throw error;
      } finally {
        clock?.dispose();
      }
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
      if (error instanceof HostError) await this.fault(ctx.call, error);
      throw error;
    }
    await this.record(ctx, question, { ...decided, answer });
    return { question, answer, decided };
  }

  private async record(ctx: AskContext, question: Question, decided: PrompterAnswer): Promise<void> {
    await this.observer.answerRecorded?.({
      call: ctx.call,
      question,
      answer: decided.answer,
      decidedBy: decided.decidedBy,
      ...(decided.decidedByDetail ? { decidedByDetail: decided.decidedByDetail } : {}),
      ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
      answeredAt: new Date().toISOString(),
      ...(ctx.requestState ? { requestState: ctx.requestState } : {}),
    });
  }

  /** Report a host-side fault to observers. */
  async fault(call: CallContext | null, error: HostError): Promise<void> {
    await this.observer.fault?.({
      call,
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      at: new Date().toISOString(),
    });
  }
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
