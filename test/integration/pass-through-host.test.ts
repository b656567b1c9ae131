// Host.passThroughCall, the gateway's pass-through path (issue 14 §6), on a
// real Host against a raw 2026-07-28 server over stdio: a plain result is
// handed to the agent's side (`early`) in the turn it is read, before the
// Host's end-of-call bookkeeping; everything else is decided as it always
// was, by the call's continuation.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedPrompter, type ElicitSpec } from '../../electron/cli/elicit-spec';
import { CallCancel } from '../../electron/core/calls/call-cancel';
import type { CallEndedEvent } from '../../electron/core/events';
import { isHostError } from '../../electron/core/host-error';
import { Host, type PassThroughRequest } from '../../electron/core/host';
import { eventually, tsxLoader } from '../gateway/harness';

const RAW = fileURLToPath(new URL('../fixtures/servers/raw-lane-server.ts', import.meta.url));

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A Host with the raw lane on the raw server; the observer's callEnded waits for `hold` when one is set. */
async function setup(specs: ElicitSpec[] = []) {
  const ended: CallEndedEvent[] = [];
  const state: { hold?: Promise<void> } = {};
  const host = new Host({
    servers: { raw: { command: process.execPath, args: ['--import', tsxLoader, RAW] } },
    prompter: new ScriptedPrompter(specs),
    observer: {
      callEnded: (e) => {
        ended.push(e);
        return state.hold;
      },
    },
    rawLane: true,
  });
  open = host;
  await host.listTools('raw'); // the lane is ready once the SDK sent a request
  let n = 0;
  const told: Array<Record<string, unknown>> = [];
  const call = (name: string, extra: Partial<PassThroughRequest> = {}) =>
    host.passThroughCall({
      server: 'raw',
      name,
      cancel: new CallCancel(),
      callId: `call-${++n}`,
      early: { complete: (r) => void told.push(r) },
      ...extra,
    });
  return { host, ended, state, told, call };
}

describe('Host.passThroughCall', () => {
  it('tells a plain result early, while the observer still holds the end of the call; the promise gives the same', async () => {
    const { ended, state, told, call } = await setup();
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    let settled = false;
    const running = call('plain').finally(() => (settled = true));
    await eventually(() => ended.length === 1, 10_000, 'the observer hearing the end');
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(settled).toBe(false);
    release();
    const { result, rounds } = await running;
    expect(result).toBe(told[0]);
    expect([rounds, ended[0]!.outcome, ended[0]!.call.callId]).toEqual([0, 'complete', 'call-1']);
  });

  it('does not tell a result that fails the check: the call fails as it does without an early listener', async () => {
    const { told, ended, call } = await setup();
    const withEarly: unknown = await call('bad_result').catch((e: unknown) => e);
    const without: unknown = await call('bad_result', { early: undefined }).catch((e: unknown) => e);
    expect(told).toEqual([]);
    expect(isHostError(withEarly, 'protocol')).toBe(true);
    expect(String((withEarly as Error).message)).toMatch(/^invalid tools\/call result: /);
    expect((withEarly as Error).message).toBe((without as Error).message);
    expect(ended.map((e) => e.outcome)).toEqual(['error', 'error']);
  });

  it('does not tell input_required: the Host asks, and the promise gives the final result', async () => {
    const { told, ended, call } = await setup([{ kind: 'accept' }]);
    const { result, rounds } = await call('asks_once');
    expect(told).toEqual([]);
    expect(rounds).toBe(1);
    expect(JSON.stringify(result.content)).toContain('answered: {\\"go\\":{\\"action\\":\\"accept\\"');
    expect(ended.map((e) => e.outcome)).toEqual(['complete']);
  });

  it('does not tell a call cancelled before its result', async () => {
    const { told, ended, call } = await setup();
    const cancel = new CallCancel();
    const running = call('slow', { arguments: { ms: 3000 }, cancel }).catch((e: unknown) => e);
    setTimeout(() => cancel.abort(new Error('the agent cancelled')), 200);
    const error = await running;
    expect(isHostError(error, 'cancelled')).toBe(true);
    expect(told).toEqual([]);
    expect(ended.map((e) => e.outcome)).toEqual(['cancelled']);
  });
});
