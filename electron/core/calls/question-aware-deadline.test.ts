import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isHostError } from '../host-error';
import { QuestionAwareDeadline } from './question-aware-deadline';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('QuestionAwareDeadline', () => {
  it('fires when the server takes too long with no question open', () => {
    const d = new QuestionAwareDeadline(1_000);
    vi.advanceTimersByTime(999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(isHostError(d.signal.reason, 'connection')).toBe(true);
    expect((d.signal.reason as Error).message).toContain('1 s with no question open');
  });

  it('stops while a question is open and starts afresh when the last one closes', () => {
    const d = new QuestionAwareDeadline(1_000);
    vi.advanceTimersByTime(900);
    const a = d.hold();
    const b = d.hold();
    vi.advanceTimersByTime(10 * 60_000);
    a();
    a(); // a second release of the same hold changes nothing
    vi.advanceTimersByTime(5_000);
    expect(d.signal.aborted).toBe(false);
    b();
    vi.advanceTimersByTime(999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
  });

  it('leaves no timer behind once disposed', () => {
    const d = new QuestionAwareDeadline(1_000);
    d.dispose();
    d.hold()();
    vi.advanceTimersByTime(5_000);
    expect(d.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
