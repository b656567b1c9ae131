// A request timeout that never runs while a human decides. A legacy server
// asks its questions INSIDE the tools/call request (elicitation/create), so
// the SDK's per-request timer (60 s by default) would count the human's time
// and fail the call while the dialog is still open. The host therefore gives
// the SDK no usable timer for such a request and keeps its own: it stops
// while any question of the call is open and starts afresh when the last one
// closes.
import { HostError } from '../host-error';

/** The SDK's default per-request timeout, which the host keeps for the server's own time. */
export const SDK_DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** The largest delay setTimeout honours (a larger one fires at once). */
export const NO_SDK_TIMEOUT_MS = 2_147_483_647;

export class QuestionAwareDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;
  private done = false;

  constructor(private readonly ms: number) {
    this.arm();
  }

  /** Aborts with a HostError when the server took longer than `ms` with no question open. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A question opened: the clock stops until the returned release is called (once). */
  hold(): () => void {
    this.holds += 1;
    this.disarm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0) this.arm();
    };
  }

  /** The request settled: no timer is left behind. */
  dispose(): void {
    this.done = true;
    this.disarm();
  }

  private arm(): void {
    if (this.done || this.holds > 0) return;
    this.disarm();
    this.timer = setTimeout(() => {
      this.controller.abort(
        new HostError(
          'connection',
          `the server did not answer in time (${formatSeconds(this.ms)} with no question open)`,
          { timeoutMs: this.ms },
        ),
      );
    }, this.ms);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
