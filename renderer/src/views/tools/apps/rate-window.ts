// A sliding count of events: at most `max` in any `windowMs`. Read from the
// caller's clock, so nothing runs between events (no timers).

/** Admits events while fewer than `max` happened in the last `windowMs`. */
export class RateWindow {
  private readonly times: number[] = [];

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an event at `now`; false when it is one too many. */
  take(now: number): boolean {
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }
}
