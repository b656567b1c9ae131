// Legacy URL-mode completions: only ids a running call waits for are kept, so a
// server that floods `notifications/elicitation/complete` cannot grow the host.
import { describe, expect, it } from 'vitest';
import { ElicitationCompletions } from './legacy-call';

describe('ElicitationCompletions', () => {
  it('drops completions of ids no call waits for (a flood leaves nothing behind)', () => {
    const c = new ElicitationCompletions();
    for (let i = 0; i < 100_000; i++) c.complete(`unknown-${i}-${'x'.repeat(64)}`);
    expect(c.size).toEqual({ expected: 0, done: 0, waiters: 0 });
  });

  it('keeps an expected id completed before the wait starts, and forgets it once released', async () => {
    const c = new ElicitationCompletions();
    const release = c.expect(['el-1']);
    c.complete('el-1');
    for (let i = 0; i < 1000; i++) c.complete(`noise-${i}`);
    expect(c.size).toEqual({ expected: 1, done: 1, waiters: 0 });
    await expect(c.wait('el-1', 1000, new AbortController().signal)).resolves.toBe(true);
    release();
    expect(c.size).toEqual({ expected: 0, done: 0, waiters: 0 });
  });

  it('wakes a waiter, and keeps no waiter after a timeout', async () => {
    const c = new ElicitationCompletions();
    const release = c.expect(['a', 'b']);
    const waiting = c.wait('a', 5000, new AbortController().signal);
    c.complete('a');
    await expect(waiting).resolves.toBe(true);
    await expect(c.wait('b', 5, new AbortController().signal)).resolves.toBe(false);
    expect(c.size.waiters).toBe(0);
    release();
    expect(c.size).toEqual({ expected: 0, done: 0, waiters: 0 });
  });

  it('counts two calls expecting the same id: the first to finish does not forget it for the other', () => {
    const c = new ElicitationCompletions();
    const first = c.expect(['same']);
    const second = c.expect(['same']);
    first();
    c.complete('same');
    expect(c.size.done).toBe(1);
    second();
    expect(c.size).toEqual({ expected: 0, done: 0, waiters: 0 });
  });
});
