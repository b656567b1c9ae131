import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeldCalls, keepAliveDue, type HeldCall } from './held-calls';
import { HostError } from '../core/host-error';

const call = (owner = 'stdio-a', target = 'tools/call fx__delete'): HeldCall => ({
  owner,
  target,
  callId: 'c1',
  controller: new AbortController(),
  running: new Promise(() => undefined),
  onChange: () => undefined,
});

afterEach(() => vi.useRealTimers());

describe('HeldCalls', () => {
  it('gives each hold a new handle that carries nothing of the call', () => {
    const held = new HeldCalls(30_000);
    const c = call();
    const a = held.hold(c);
    const b = held.hold(c);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^cs1\.[A-Za-z0-9_-]{24}$/);
    expect(a).not.toContain('fx__delete');
    held.close(new HostError('cancelled', 'test over'));
  });

  it('hands a call back once, only to its own connection and for the same target', () => {
    const held = new HeldCalls(30_000);
    const c = call();
    const handle = held.hold(c);
    expect(held.take(handle, 'stdio-b', c.target)).toBeUndefined();
    expect(held.take(handle, c.owner, 'tools/call fx__other')).toBeUndefined();
    expect(held.take('cs1.guessed', c.owner, c.target)).toBeUndefined();
    // The wrong guesses above changed nothing: the right repeat still finds it, once.
    expect(held.take(handle, c.owner, c.target)).toBe(c);
    expect(held.take(handle, c.owner, c.target)).toBeUndefined();
    expect(held.size).toBe(0);
    expect(c.controller.signal.aborted).toBe(false);
  });

  it('cancels a call its agent does not come back for within the grace time, naming why', () => {
    vi.useFakeTimers();
    const held = new HeldCalls(1_000);
    const c = call();
    const handle = held.hold(c);
    vi.advanceTimersByTime(999);
    expect(c.controller.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(c.controller.signal.aborted).toBe(true);
    expect((c.controller.signal.reason as HostError).message).toBe(
      'the agent stopped waiting: it did not repeat its request within 1 s',
    );
    expect(held.take(handle, c.owner, c.target)).toBeUndefined();
  });

  it('a call picked up in time is not cancelled later', () => {
    vi.useFakeTimers();
    const held = new HeldCalls(1_000);
    const c = call();
    held.take(held.hold(c), c.owner, c.target);
    vi.advanceTimersByTime(5_000);
    expect(c.controller.signal.aborted).toBe(false);
  });

  it('closing cancels every held call with the reason given', () => {
    const held = new HeldCalls(30_000);
    const [a, b] = [call('x'), call('y')];
    held.hold(a);
    held.hold(b);
    held.close(new HostError('cancelled', 'the gateway closed'));
    for (const c of [a, b]) expect((c.controller.signal.reason as HostError).message).toBe('the gateway closed');
    expect(held.size).toBe(0);
  });
});

describe('keepAliveDue', () => {
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  };

  it('is due the keep-alive time after the request began, once the human has been asked', async () => {
    vi.useFakeTimers();
    let asked = false;
    const k = keepAliveDue(1_000, () => asked);
    vi.advanceTimersByTime(400);
    asked = true;
    k.changed(); // the question opened 0.4 s into the request
    vi.advanceTimersByTime(599);
    expect(await settled(k.due)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(k.due)).toBe(true);
  });

  it('never for a call that asks nothing (a slow server is the agent timeout’s business)', async () => {
    vi.useFakeTimers();
    const k = keepAliveDue(1_000, () => false);
    k.changed();
    vi.advanceTimersByTime(60_000);
    expect(await settled(k.due)).toBe(false);
  });

  it('at once for a question that opens after the keep-alive time', async () => {
    vi.useFakeTimers();
    let asked = false;
    const k = keepAliveDue(1_000, () => asked);
    vi.advanceTimersByTime(5_000);
    asked = true;
    k.changed();
    expect(await settled(k.due)).toBe(true);
  });

  it('not after stop()', async () => {
    vi.useFakeTimers();
    const k = keepAliveDue(1_000, () => true);
    k.changed();
    k.stop();
    vi.advanceTimersByTime(5_000);
    expect(await settled(k.due)).toBe(false);
  });
});
