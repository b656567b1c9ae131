// The redirect listener against real HTTP requests: only the request with
// this sign-in's state ends the wait; anything else any local program sends
// is answered and, for a wrong state, reported (a bounded number of times).
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STRAY_FAULTS, openLoopbackListener, type LoopbackListener } from './loopback-listener';

const STATE = 'the-state-countersign-sent';
const HOUR = 3_600_000;

let listener: LoopbackListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe('the sign-in redirect listener', () => {
  it('answers a wrong state with a neutral page, reports it once, and keeps waiting for the right one', async () => {
    listener = await openLoopbackListener();
    const faults: string[] = [];
    let settled = false;
    const waiting = listener.arm(STATE, HOUR, undefined, (m) => void faults.push(m));
    void waiting.finally(() => (settled = true));
    const stray = await get(`${listener.redirectUrl}?code=attackers-code&state=guessed`);
    expect(stray.status).toBe(400);
    expect(stray.body).toContain('does not belong to a sign-in Countersign started');
    expect(stray.body).not.toContain('attackers-code');
    expect(faults).toEqual([expect.stringMatching(/ignored a sign-in response without the state Countersign sent/)]);
    // No state at all is a wrong state too.
    expect((await get(`${listener.redirectUrl}?code=x`)).status).toBe(400);
    expect(faults).toHaveLength(2);
    expect(settled).toBe(false);
    const ok = await get(`${listener.redirectUrl}?code=the-code&state=${STATE}&iss=https%3A%2F%2Fas.example`);
    expect(ok.body).toContain('Signed in');
    await expect(waiting).resolves.toEqual({ code: 'the-code', iss: 'https://as.example' });
  });

  it('a flood of wrong states costs a bounded number of faults, and the right one still wins', async () => {
    listener = await openLoopbackListener();
    const faults: string[] = [];
    const waiting = listener.arm(STATE, HOUR, undefined, (m) => void faults.push(m));
    for (let i = 0; i < 60; i++)
      expect((await get(`${listener.redirectUrl}?code=c${i}&state=wrong${i}`)).status).toBe(400);
    expect(faults).toHaveLength(MAX_STRAY_FAULTS);
    expect(faults.at(-1)).toMatch(/further ones during this sign-in are ignored without a record/);
    await get(`${listener.redirectUrl}?code=mine&state=${STATE}`);
    await expect(waiting).resolves.toEqual({ code: 'mine' });
  });

  it('other paths and methods neither count nor end the wait', async () => {
    listener = await openLoopbackListener();
    const faults: string[] = [];
    const waiting = listener.arm(STATE, HOUR, undefined, (m) => void faults.push(m));
    expect((await get(listener.redirectUrl.replace('/callback', '/favicon.ico'))).status).toBe(404);
    expect((await fetch(`${listener.redirectUrl}?code=x&state=${STATE}`, { method: 'POST' })).status).toBe(404);
    expect(faults).toEqual([]);
    await get(`${listener.redirectUrl}?code=mine&state=${STATE}`);
    await expect(waiting).resolves.toEqual({ code: 'mine' });
  });

  it('takes the right state once: a second one changes nothing', async () => {
    listener = await openLoopbackListener();
    const waiting = listener.arm(STATE, HOUR);
    await get(`${listener.redirectUrl}?code=first&state=${STATE}`);
    const second = await fetch(`${listener.redirectUrl}?code=second&state=${STATE}`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([404, 'refused']).toContain(second);
    await expect(waiting).resolves.toEqual({ code: 'first' });
  });

  it('an error response with the right state ends the sign-in (the browser came back)', async () => {
    listener = await openLoopbackListener();
    const waiting = listener.arm(STATE, HOUR);
    void waiting.catch(() => undefined);
    await get(`${listener.redirectUrl}?error=access_denied&state=${STATE}`);
    await expect(waiting).rejects.toMatchObject({ code: 'auth', details: { reason: 'declined' } });
  });
});
