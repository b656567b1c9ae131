// A legacy server's elicitation/create that names no task: asked through the
// gate for the call in flight that must have caused it, with every call's
// clock held while the human decides.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { isHostError } from '../host-error';
import { LIMITS } from '../limits';
import type { QuestionAsker } from '../prompter/question-gate';
import type { ServerSlot } from './server-slot';
import { verifiedApprovalMeta } from '../calls/input-required-loop';

/** Answer a legacy server's elicitation/create through the gate. */
export async function answerLegacyElicit(
  gate: QuestionAsker,
  slot: ServerSlot,
  server: string,
  params: Record<string, unknown>,
  serverSignal: AbortSignal,
): Promise<ElicitResult> {
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
      await gate.checkCount(
        live.context,
        server,
        n,
        LIMITS.legacyQuestionsPerCall,
        `questions (elicitation/create) during one ${live.context.method}`,
      );
    const { answer, receipt } = await gate.ask(
      params,
      { call: live?.context ?? null, server, era: 'legacy', round: live?.round ?? 1, key },
      signal,
    );
    // The last check before the answer goes out: a call that ended is
    // never sent the human's answer.
    if (inFlight.length > 0 && inFlight.every((c) => c.ended)) return { action: 'cancel' };
    // A server that asks for verified approvals gets the receipt with the answer, as a modern one with the retry.
    if (receipt && live?.context.toolHints?.verifiedApproval)
      return { ...answer, _meta: verifiedApprovalMeta({ [key]: receipt }) };
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
