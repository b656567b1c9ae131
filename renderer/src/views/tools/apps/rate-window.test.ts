import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window';

describe('RateWindow', () => {
  it('admits max events per window and more once the window has moved on', () => {
    const w = new RateWindow(3, 1000);
    expect([w.take(0), w.take(10), w.take(20), w.take(30)]).toEqual([true, true, true, false]);
    expect(w.take(999)).toBe(false);
    expect(w.take(1000)).toBe(true);
    expect(w.take(1015)).toBe(true);
    expect(w.take(1016)).toBe(false);
  });
});
