// A call's cancellation, for the gateway's pass-through calls, without an
// AbortSignal until something needs one. In Node 20 adding or removing an
// 'abort' listener and aborting each cost about as much as parsing the
// whole message (measured in docs/gateway-profile.md), and a plain call
// that nobody cancels paid three of them. This handle is a flag and a short
// list of callbacks; `signal` makes a real AbortSignal that follows it, for
// the Host's full path once a call needs one.

export class CallCancel {
  private done = false;
  private why: unknown;
  private listeners: Array<(reason: unknown) => void> | undefined;
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
    for (const l of listeners ?? []) l(reason);
  }

  /** Run `listener` when cancelled (not if it already is: check `aborted` first); returns its removal. */
  listen(listener: (reason: unknown) => void): () => void {
    if (this.done) return () => undefined;
    (this.listeners ??= []).push(listener);
    return () => {
      const i = this.listeners?.indexOf(listener) ?? -1;
      if (i >= 0) this.listeners!.splice(i, 1);
    };
  }

  /** An AbortSignal that aborts with this handle (made on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.done) controller.abort(this.why);
      else this.listen((reason) => controller.abort(reason));
    }
    return this.controller.signal;
  }
}
