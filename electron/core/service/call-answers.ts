// What was answered last in each call and task, so the Tools and Tasks views can
// say how a call ended in the person's terms. A server that hears "decline"
// usually still completes the call (with a text saying so), and a task whose
// question was dismissed often completes too: "Done" in green would then claim
// a success nobody chose. The last round decides, not the whole call: a person
// who declined once and accepted when asked again got what they accepted.
// In memory only, bounded; after a restart a view falls back to the status.
import type { LastAnswer } from '../../../shared/host-api/contract';
import type { Question } from '../../../shared/elicitation/types';
import type { AnswerEvent, CallContext, HostObserver } from '../events';

/** Calls and tasks remembered at most (oldest forgotten first). */
const MAX_REMEMBERED = 1000;

/** Worse answers win within one round: one cancel or decline among accepts is what the round amounts to. */
const WEIGHT: Record<LastAnswer['action'], number> = { accept: 0, decline: 1, cancel: 2 };

/** What one call or task was last asked and answered. */
interface Entry {
  /** The round the last answer belongs to, and what it amounts to so far. */
  round?: { key: string; answer: LastAnswer };
  /** Questions asked and not answered yet. */
  waiting: Set<string>;
}

/** Questions the server withdrew, or that were still open when the call ended: nobody answered them. */
const UNANSWERED: LastAnswer = { action: 'cancel', decidedBy: 'call-cancelled' };

/**
 * Remembers the last round's answer per call id and per task id; an observer of the core's questions and answers.
 * A question still waiting when the call ends counts as unanswered at once: its withdrawal is recorded a moment
 * later, and the outcome must not depend on which comes first.
 */
export class CallAnswers {
  private readonly byCall = new Map<string, Entry>();
  private readonly byTask = new Map<string, Entry>();

  /** The observer to combine with the history's: it only reads the events. */
  readonly observer: HostObserver = {
    questionAsked: ({ call, question }) => {
      for (const entry of this.entriesOf(call, question)) entry.waiting.add(question.id);
    },
    answerRecorded: (event) => this.record(event),
  };

  /** What the last round of `callId` was answered with, if the call asked anything. */
  forCall(callId: string): LastAnswer | undefined {
    return outcomeOf(this.byCall.get(callId));
  }

  /** What the last question of task `taskId` was answered with, if it asked anything. */
  forTask(taskId: string): LastAnswer | undefined {
    return outcomeOf(this.byTask.get(taskId));
  }

  private record({ call, question, answer, decidedBy }: AnswerEvent): void {
    const origin = question.origin;
    // A modern round's questions are answered together; a legacy question is a round of its own.
    const key = origin.era === 'modern' ? `round ${origin.round}` : `question ${question.id}`;
    const given: LastAnswer = { action: answer.action, decidedBy };
    for (const entry of this.entriesOf(call, question)) {
      entry.waiting.delete(question.id);
      const before = entry.round;
      const worse = before?.key === key && WEIGHT[before.answer.action] > WEIGHT[given.action];
      entry.round = { key, answer: worse ? before.answer : given };
    }
  }

  /** The entries a question counts for (its call's, its task's), each made the most recently used. */
  private entriesOf(call: CallContext | null, question: Question): Entry[] {
    const entries: Entry[] = [];
    if (call) entries.push(use(this.byCall, call.callId));
    if (question.origin.task) entries.push(use(this.byTask, question.origin.task.taskId));
    return entries;
  }
}

function outcomeOf(entry: Entry | undefined): LastAnswer | undefined {
  if (entry && entry.waiting.size > 0) return UNANSWERED;
  return entry?.round?.answer;
}

function use(map: Map<string, Entry>, id: string): Entry {
  const entry = map.get(id) ?? { waiting: new Set<string>() };
  map.delete(id); // re-inserted last: the Map's order is the order of use
  map.set(id, entry);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
  return entry;
}
