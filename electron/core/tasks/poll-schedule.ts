// How often the host asks a server about a task. The server suggests an
// interval (pollIntervalMs / pollInterval); the host keeps it within bounds
// (a server must not make it spin, nor stall it for an hour) and backs off
// while nothing changes, back to the suggestion as soon as something does.

export interface PollBounds {
  /** Never poll faster than this (default 100 ms). */
  minMs: number;
  /** Never wait longer than this between polls (default 30 s). */
  maxMs: number;
  /** Interval when the server suggests none (default 1 s). */
  defaultMs: number;
  /** Growth per unchanged poll (default 1.5). */
  backoff: number;
  /** Cap of the idle backoff as a multiple of the suggestion (default 8). */
  maxBackoffFactor: number;
}

export const DEFAULT_POLL_BOUNDS: PollBounds = {
  minMs: 100,
  maxMs: 30_000,
  defaultMs: 1_000,
  backoff: 1.5,
  maxBackoffFactor: 8,
};

/** The server's suggestion, clamped to the bounds. */
export function clampInterval(suggested: number | undefined, bounds: PollBounds = DEFAULT_POLL_BOUNDS): number {
  const base = suggested === undefined || !Number.isFinite(suggested) ? bounds.defaultMs : suggested;
  return Math.min(bounds.maxMs, Math.max(bounds.minMs, Math.round(base)));
}

/** The next waits of one task: call `next(changed)` after each poll. */
export class PollSchedule {
  private idle = 0;
  constructor(private readonly bounds: PollBounds = DEFAULT_POLL_BOUNDS) {}

  /** The wait before the next poll, given the server's current suggestion and whether the last poll saw a change. */
  next(suggested: number | undefined, changed: boolean): number {
    const base = clampInterval(suggested, this.bounds);
    this.idle = changed ? 0 : this.idle + 1;
    const factor = Math.min(this.bounds.maxBackoffFactor, this.bounds.backoff ** Math.max(0, this.idle - 1));
    return Math.min(this.bounds.maxMs, Math.round(base * factor));
  }
}
