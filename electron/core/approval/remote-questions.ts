// The gateway's questions, put to the app's one QuestionGate over the
// approval channel as the server sent them. The gateway neither builds nor
// checks a question, nor re-checks the answer: the app's gate (the same one
// its own calls ask through) refuses what it cannot show, checks the answer
// against the form and records both before it replies (./approval-server.ts).
// What travels besides is what only this process knows: the call (without
// its arguments: a summary stands for them), the round, where the question
// stands in it, the requestState's digest, and this gateway's time limit.
import type { CallContext } from '../events';
import { HostError } from '../host-error';
import {
  reportFault,
  refuseOverLimit,
  summariseArguments,
  type AskContext,
  type ElicitParams,
  type GateAnswer,
  type QuestionAsker,
  type QuestionAskerDeps,
} from '../prompter/question-gate';
import type { PrompterAnswer } from '../prompter/prompter';
import type { Question } from '../../../shared/elicitation/types';
import type { ApprovalClient, AskFrame } from './approval-client';
import {
  MAX_FRAME_BYTES,
  WIRE_LIMITS,
  encodeFrame,
  type QuestionContext,
  type RawQuestion,
  type WireCall,
} from './protocol';

/** Labels longer than the wire's limits are cut, never refused (the app shows them as the gateway's word). */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The arguments, when they fit the wire; a passkey payload must hash exactly them, never a cut copy. */
function wireArguments(args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (args === undefined) return undefined;
  try {
    return (JSON.stringify(args)?.length ?? 0) <= WIRE_LIMITS.arguments ? args : undefined;
  } catch {
    return undefined;
  }
}

/** The call as it travels: its arguments (when they fit) and the tool's hints, the labels cut to the wire's limits. */
export function wireCall(call: CallContext): WireCall {
  const args = wireArguments(call.arguments);
  return {
    callId: call.callId,
    server: call.server,
    era: call.era,
    protocolVersion: cut(call.protocolVersion, WIRE_LIMITS.protocolVersion),
    method: call.method,
    name: cut(call.name, WIRE_LIMITS.name),
    ...(call.agent !== undefined ? { agent: cut(call.agent, WIRE_LIMITS.agent) } : {}),
    ...(args !== undefined ? { arguments: args } : call.arguments !== undefined ? { argumentsOmitted: true } : {}),
    ...(call.toolHints !== undefined ? { toolHints: { ...call.toolHints } } : {}),
  };
}

/**
 * The fields of the server's params the gate reads for the question's mode, as they came: nothing checked,
 * nothing cut. A link question's schema and a form's link are never read, so they do not travel.
 */
export function rawQuestion(params: ElicitParams): RawQuestion {
  const { mode, message, requestedSchema, url } = params;
  const modeField = mode === 'url' ? { url } : { requestedSchema };
  return {
    ...(mode !== undefined ? { mode } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(Object.values(modeField)[0] !== undefined ? modeField : {}),
  };
}

/** Where the question comes from, every label within the wire's limits. */
export function questionContext(ctx: AskContext, timeLimitMinutes: number): QuestionContext {
  const call = ctx.call;
  const summary = summariseArguments(call?.arguments);
  const position = ctx.roundPosition;
  return {
    server: cut(ctx.server, WIRE_LIMITS.server),
    era: ctx.era,
    method: call?.method ?? null,
    name: call ? cut(call.name, WIRE_LIMITS.name) : null,
    round: Math.min(ctx.round, WIRE_LIMITS.round),
    key: cut(ctx.key, WIRE_LIMITS.key),
    ...(summary !== undefined ? { argumentsSummary: cut(summary, WIRE_LIMITS.argumentsSummary) } : {}),
    ...(timeLimitMinutes > 0 ? { timeLimitMinutes } : {}),
    // Where the question stands in its round, so the app's dialog says so for gateway questions too.
    ...(position !== undefined && position.count > 1 && position.count <= WIRE_LIMITS.roundQuestions
      ? { roundPosition: { ...position, keys: position.keys.map((k) => cut(k, WIRE_LIMITS.key)) } }
      : {}),
    ...(ctx.lastRound ? { lastRound: true as const } : {}),
  };
}

/** The gateway's QuestionAsker: every question goes to the app, whose gate is its one builder and checker. */
export class RemoteQuestions implements QuestionAsker {
  // The app at the other end takes a round at once, as its own calls' rounds.
  readonly asksRoundsTogether = true;

  constructor(
    private readonly client: ApprovalClient,
    private readonly deps: QuestionAskerDeps,
    /** This process's log (stderr): what never reaches the app is said here. */
    private readonly log: (line: string) => void,
  ) {}

  async ask(params: ElicitParams, ctx: AskContext, signal: AbortSignal): Promise<GateAnswer> {
    const frame: AskFrame = {
      question: rawQuestion(params),
      context: questionContext(ctx, this.deps.timeLimitMinutes()),
      call: ctx.call ? wireCall(ctx.call) : null,
      ...(ctx.requestState ? { requestState: ctx.requestState } : {}),
    };
    await this.fitsTheWire(frame, ctx);
    const { observer } = this.deps;
    const cancelled = { call: ctx.call, answer: { action: 'cancel' as const }, decidedBy: 'call-cancelled' as const };
    await observer.questionRelayed?.({ call: ctx.call });
    let decided: PrompterAnswer;
    try {
      decided = await this.client.ask(frame, signal);
    } catch (error) {
      if (!signal.aborted) {
        // No answer will come (the app refused or withdrew it, or the channel broke): the call no longer waits.
        await observer.answerRelayed?.({ call: ctx.call });
        throw error;
      }
      // The app recorded the question as cancelled when the channel told it of the cancel.
      await observer.answerRelayed?.(cancelled);
      throw new HostError('cancelled', 'the call was cancelled while a question was open');
    }
    if (signal.aborted) {
      // The call ended while the answer was on its way: it is never sent.
      await observer.answerRelayed?.(cancelled);
      throw new HostError('cancelled', 'the call ended before the answer could be sent');
    }
    await observer.answerRelayed?.({ call: ctx.call, answer: decided.answer, decidedBy: decided.decidedBy });
    return { answer: decided.answer, decided, ...(decided.receipt ? { receipt: decided.receipt } : {}) };
  }

  /**
   * The app drops a connection that sends a frame over its cap, which would end every other call on it too; a
   * question that cannot travel is refused here instead, said in this process's log (the app never sees it) and
   * reported to its observer. The gate's own limits for the fields that travel (a message, a form's schema, a
   * link) are far below the cap, so this catches only what the gate would refuse anyway.
   */
  private async fitsTheWire(frame: AskFrame, ctx: AskContext): Promise<void> {
    let bytes: number;
    try {
      bytes = Buffer.byteLength(encodeFrame({ type: 'ask', id: 'q'.repeat(100), ...frame }));
    } catch {
      bytes = Infinity;
    }
    if (bytes <= MAX_FRAME_BYTES) return;
    const error = new HostError(
      'invalid-schema',
      `server "${ctx.server}" sent a question too large to pass to the Countersign app ` +
        `(the approval channel carries at most ${MAX_FRAME_BYTES} bytes a question); it was not shown`,
      { key: ctx.key, limit: MAX_FRAME_BYTES },
    );
    this.log(`countersign gateway: refused a question before sending it to the app: ${error.message}`);
    await this.fault(ctx.call, error);
    throw error;
  }

  checkCount(call: CallContext | null, server: string, count: number, limit: number, what: string): Promise<void> {
    return refuseOverLimit(this.deps.observer, call, server, count, limit, what);
  }

  fault(call: CallContext | null, error: HostError, question?: Question): Promise<void> {
    return reportFault(this.deps.observer, call, error, question);
  }
}
