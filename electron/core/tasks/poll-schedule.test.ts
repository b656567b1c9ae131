import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_BOUNDS, PollSchedule, clampInterval } from './poll-schedule';

describe('poll schedule', () => {
  it('keeps the server suggestion within bounds', () => {
    expect(clampInterval(5)).toBe(DEFAULT_POLL_BOUNDS.minMs);
    expect(clampInterval(3_600_000)).toBe(DEFAULT_POLL_BOUNDS.maxMs);
    expect(clampInterval(undefined)).toBe(DEFAULT_POLL_BOUNDS.defaultMs);
    expect(clampInterval(Number.NaN)).toBe(DEFAULT_POLL_BOUNDS.defaultMs);
    expect(clampInterval(2500)).toBe(2500);
  });

  it('honours the suggestion while things change and backs off while idle, capped', () => {
    const s = new PollSchedule();
    expect(s.next(200, true)).toBe(200);
    expect(s.next(200, false)).toBe(200);
    expect(s.next(200, false)).toBe(300);
    expect(s.next(200, false)).toBe(450);
    const waits = Array.from({ length: 20 }, () => s.next(200, false));
    expect(Math.max(...waits)).toBe(200 * DEFAULT_POLL_BOUNDS.maxBackoffFactor);
    expect(s.next(200, true)).toBe(200);
  });

  it('never exceeds the maximum wait even when backing off from a long suggestion', () => {
    const s = new PollSchedule();
    for (let i = 0; i < 30; i++) expect(s.next(20_000, false)).toBeLessThanOrEqual(DEFAULT_POLL_BOUNDS.maxMs);
  });
});
