// What the gateway needs to know about its own running calls while they
// wait: whether a question is open right now and whether the server turned
// the call into a task (for progress messages and agent task statuses), and
// the last decision taken (for the sentence the agent gets when the server
// gives no result of its own). Fed by the core's events. It keeps no text of
// any question or of a server's status message: only counts and states.
import type { CallContext, HostObserver } from '../core/events';
import type { LastDecision } from './results';

interface CallState {
  open: number;
  /** A question of this call has reached the human (now or earlier). */
  asked?: boolean;
  last?: LastDecision;
  /** The server's task status, when the call became a task. */
  task?: string;
  /** Told when a question opens or the task changes. */
  onChange?: () => void;
}

export class CallTracker {
  private readonly calls = new Map<string, CallState>();

  /** Start tracking a call the gateway is about to run. */
  begin(callId: string, onChange?: () => void): void {
    this.calls.set(callId, onChange ? { open: 0, onChange } : { open: 0 });
  }

  /** Stop tracking it. */
  end(callId: string): void {
    this.calls.delete(callId);
  }

  /** True while one of the call's questions waits for the human. */
  waiting(callId: string): boolean {
    return (this.calls.get(callId)?.open ?? 0) > 0;
  }

  /** True once the call has asked the human anything (its server's task included). */
  asked(callId: string): boolean {
    return this.calls.get(callId)?.asked === true;
  }

  /** The server's task status when the call became a task (undefined: not a task, or not tracked). */
  taskStatus(callId: string): string | undefined {
    return this.calls.get(callId)?.task;
  }

  /**
   * Where a running call stands, in the gateway's own fixed words (for
   * progress notifications and agent task statuses).
   */
  sentence(callId: string): string {
    if (this.waiting(callId)) return 'waiting for the user to answer in Countersign';
    const task = this.taskStatus(callId);
    // input_required upstream: its question is on its way to the human.
    if (task === 'input_required') return 'waiting for the user to answer in Countersign';
    if (task !== undefined) return `the server is running it as a task (${task === 'working' ? 'working' : 'ending'})`;
    return 'waiting for the server';
  }

  /** The call's most recent decision, if it asked anything. */
  lastDecision(callId: string): LastDecision | undefined {
    return this.calls.get(callId)?.last;
  }

  private questionOpened(call: CallContext | null): void {
    const state = call && this.calls.get(call.callId);
    if (!state) return;
    state.open += 1;
    state.asked = true;
    state.onChange?.();
  }

  private questionAnswered(call: CallContext | null, last: LastDecision | undefined): void {
    const state = call && this.calls.get(call.callId);
    if (!state) return;
    state.open = Math.max(0, state.open - 1);
    if (last) state.last = last;
    state.onChange?.();
  }

  // The gateway's questions are relayed to the app (core/approval/remote-questions.ts): a call is asking
  // until its answer is back.
  readonly observer: HostObserver = {
    questionRelayed: (e) => this.questionOpened(e.call),
    answerRelayed: (e) =>
      this.questionAnswered(e.call, e.answer ? { action: e.answer.action, decidedBy: e.decidedBy } : undefined),
    taskChanged: (e) => {
      const state = e.call && this.calls.get(e.call.callId);
      if (!state || state.task === e.task.status) return;
      state.task = e.task.status;
      if (e.task.status === 'input_required') state.asked = true;
      state.onChange?.();
    },
  };
}
