// The words and colour of how a call or task ended. A server that hears
// "decline" or "cancel" usually still completes the call with a reply saying
// so; the status alone ("Done", "Completed", in green) would then claim a
// success nobody chose. So a completed call or task whose last round was not
// accepted says what was answered and by whom. Pure.
import type { LastAnswer } from '../../../../shared/host-api/contract';
import type { MessageKey } from '../../i18n/en';

/** What a finished call or task shows: the pill's words and colour, a note under it, and a state name for tests. */
export interface Outcome {
  state: string;
  label: MessageKey;
  pill: string;
  /** Who answered what, and that the reply below is the server's answer to it. */
  note?: MessageKey;
  /** Fills {reason} in the note when nobody answered. */
  reason?: MessageKey;
}

/**
 * The outcome of something that completed (a call with a result, a task with status completed), given whether the
 * result is a tool error and how its last round was answered; `completed` is the word and state it has otherwise.
 */
export function completedOutcome(
  completed: { state: string; label: MessageKey },
  isError: boolean,
  lastAnswer: LastAnswer | undefined,
): Outcome {
  if (lastAnswer && lastAnswer.action !== 'accept') {
    const declined = lastAnswer.action === 'decline';
    const label: MessageKey = declined ? 'outcome.declined' : 'outcome.questionCancelled';
    const state = declined ? 'declined' : 'question-cancelled';
    const by = lastAnswer.decidedBy;
    if (by === 'human' || by === 'script')
      return { state, label, pill: 'pill-neutral', note: `outcome.note.${by}.${lastAnswer.action}` };
    if (by === 'mute-rule') return { state, label, pill: 'pill-neutral', note: 'outcome.note.rule' };
    // Nobody answered: the host ended the question for a reason it names, or the server withdrew it.
    // Never shown as the person's choice.
    return {
      state: 'unanswered',
      label: 'outcome.unanswered',
      pill: 'pill-warning',
      note: 'outcome.note.unanswered',
      reason: `outcome.reason.${by}`,
    };
  }
  if (isError) return { state: 'tool-error', label: 'tools.state.tool-error', pill: 'pill-danger' };
  return { ...completed, pill: 'pill-success' };
}
