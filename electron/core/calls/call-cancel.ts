// A call's cancellation, for the gateway's pass-through calls, without an
// AbortSignal until something needs one. In Node 20 adding or removing an
// 'abort' listener and aborting each cost about as much as parsing the
// whole message (measured in docs/gateway-profile.md), and a plain call
// that nobody cancels paid three of them. This handle is a flag and a short
// list of listeners; `signal` makes a real AbortSignal that follows it, for
// the Host's full path once a call needs one.
//
// A listener may be an object with an `abort(reason)` method (another
// CallCancel, a lane request), so that passing a cancel on makes no closure
// per call (round 5 of the profile: each one was an allocation and, under
// tsx, a defineProperty for its name).

/** What a cancel is passed on to. */
export type CancelListener = ((reason: unknown) => void) | { abort(reason: unknown): void };

export class CallCancel {
  private done = false;
  private why: unknown;
  private listeners: CancelListener[] | undefined;
  private controller: AbortController | undefined;

  get aborted(): boolean {
    return this.done;
  }

  get reason(): unknown {
    return this.why;
  }

  /** Cancel (once): every listener runs, in the order they were added. */
  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const l of listeners ?? []) {
      if (typeof l === 'function') l(reason);
      else l.abort(reason);
    }
  }

  /** Tell `listener` when cancelled (not if it already is: check `aborted` first). */
  listen(listener: CancelListener): void {
    if (!this.done) (this.listeners ??= []).push(listener);
  }

  /** Stop telling `listener` (its first registration). */
  unlisten(listener: CancelListener): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  /** An AbortSignal that aborts with this handle (made on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.done) controller.abort(this.why);
      else this.listen(controller);
    }
    return this.controller.signal;
  }
}
