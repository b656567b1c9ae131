// What the gateway needs to know about its own running calls while they
// wait for the human: whether a question is open right now (for progress
// messages) and the last decision taken (for the sentence the agent gets
// when the server gives no result of its own). Fed by the core's events.
import type { HostObserver } from '../core/events';
import type { LastDecision } from './results';

interface CallState {
  open: number;
  last?: LastDecision;
}

export class CallTracker {
  private readonly calls = new Map<string, CallState>();

  /** Start tracking a call the gateway is about to run. */
  begin(callId: string): void {
    this.calls.set(callId, { open: 0 });
  }

  /** Stop tracking it. */
  end(callId: string): void {
    this.calls.delete(callId);
  }

  /** True while one of the call's questions waits for the human. */
  waiting(callId: string): boolean {
    return (this.calls.get(callId)?.open ?? 0) > 0;
  }

  /** The call's most recent decision, if it asked anything. */
  lastDecision(callId: string): LastDecision | undefined {
    return this.calls.get(callId)?.last;
  }

  readonly observer: HostObserver = {
    questionAsked: (e) => {
      const state = e.call && this.calls.get(e.call.callId);
      if (state) state.open += 1;
    },
    answerRecorded: (e) => {
      const state = e.call && this.calls.get(e.call.callId);
      if (!state) return;
      state.open = Math.max(0, state.open - 1);
      state.last = { action: e.answer.action, decidedBy: e.decidedBy };
    },
  };
}
