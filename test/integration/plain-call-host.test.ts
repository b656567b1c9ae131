// The Host's ordinary call path (Host.call) for the gateway's plain
// tools/call, on a real Host against a raw 2026-07-28 server over stdio:
// only the tool's name and arguments reach the server, a plain result ends
// the call at once, a bad one fails with the schema's sentence, a question
// goes through the gate, and the caller's signal cancels the call upstream.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedPrompter, type ElicitSpec } from '../../electron/cli/elicit-spec';
import type { CallEndedEvent } from '../../electron/core/events';
import { isHostError } from '../../electron/core/host-error';
import { Host, type CallRequest } from '../../electron/core/host';
import { eventually, tsxLoader } from '../gateway/harness';

const RAW = fileURLToPath(new URL('../fixtures/servers/raw-server.ts', import.meta.url));

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A Host on the raw server, which logs every line it receives. */
function setup(specs: ElicitSpec[] = []) {
  const log = join(mkdtempSync(join(tmpdir(), 'cs-raw-server-')), 'in.jsonl');
  const ended: CallEndedEvent[] = [];
  const state: { hold?: Promise<void> } = {};
  const host = new Host({
    servers: { raw: { command: process.execPath, args: ['--import', tsxLoader, RAW], env: { RAW_SERVER_LOG: log } } },
    prompter: new ScriptedPrompter(specs),
    observer: {
      callEnded: (e) => {
        ended.push(e);
        return state.hold;
      },
    },
  });
  open = host;
  const upstream = (): Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }> =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { method?: string })
      : [];
  let n = 0;
  const call = (name: string, extra: Partial<CallRequest> = {}) =>
    host.call({ server: 'raw', method: 'tools/call', name, callId: `call-${++n}`, agent: 'agent', ...extra });
  return { host, ended, state, upstream, call };
}

describe("the gateway's plain tools/call on the Host's ordinary path", () => {
  it('sends only the name and the arguments, and ends a plain result at once', async () => {
    const { ended, upstream, call } = setup();
    const { result, rounds } = await call('plain', { arguments: { a: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect([rounds, ended[0]!.outcome, ended[0]!.call.callId, ended[0]!.call.agent]).toEqual([
      0,
      'complete',
      'call-1',
      'agent',
    ]);
    const sent = upstream().filter((m) => m.method === 'tools/call');
    expect(sent).toHaveLength(1);
    const { _meta, ...params } = sent[0]!.params!;
    expect(params).toEqual({ name: 'plain', arguments: { a: 1 } });
    // The envelope is the SDK's own: protocol keys only.
    expect(Object.keys(_meta as object).every((k) => k.startsWith('io.modelcontextprotocol/'))).toBe(true);
  });

  it('tells a plain result (onResult) while the observer still holds the end of the call; the promise gives the same', async () => {
    const { ended, state, call } = setup();
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    const told: Array<Record<string, unknown>> = [];
    let settled = false;
    const running = call('plain', { onResult: (r) => void told.push(r) }).finally(() => (settled = true));
    await eventually(() => ended.length === 1, 10_000, 'the observer hearing the end');
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(settled).toBe(false);
    release();
    const { result } = await running;
    expect(result).toBe(told[0]);
  });

  it('does not tell a failed call or an input round: only the final result', async () => {
    const { call } = setup([{ kind: 'accept' }]);
    const told: Array<Record<string, unknown>> = [];
    await call('bad_result', { onResult: (r) => void told.push(r) }).catch(() => undefined);
    expect(told).toEqual([]);
    const { result } = await call('asks_once', { onResult: (r) => void told.push(r) });
    expect(told).toEqual([result]);
  });

  it('a result that fails the schema fails the call with its sentence', async () => {
    const { ended, call } = setup();
    const error: unknown = await call('bad_result').catch((e: unknown) => e);
    expect(isHostError(error, 'protocol')).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid result for tools\/call: /);
    expect(ended.map((e) => e.outcome)).toEqual(['error']);
  });

  it('input_required: the Host asks through the gate, and the result is the final one', async () => {
    const { ended, call } = setup([{ kind: 'accept' }]);
    const { result, rounds } = await call('asks_once');
    expect(rounds).toBe(1);
    expect(JSON.stringify(result.content)).toContain('answered: {\\"go\\":{\\"action\\":\\"accept\\"');
    expect(ended.map((e) => e.outcome)).toEqual(['complete']);
  });

  it("the caller's signal cancels the call and tells the server", async () => {
    const { ended, upstream, call } = setup();
    const controller = new AbortController();
    const running = call('slow', { arguments: { ms: 3000 }, signal: controller.signal }).catch((e: unknown) => e);
    await eventually(() => upstream().some((m) => m.method === 'tools/call'), 10_000, 'the call reaching the server');
    controller.abort(new Error('the agent cancelled'));
    const error = await running;
    expect(isHostError(error, 'cancelled')).toBe(true);
    expect(ended.map((e) => e.outcome)).toEqual(['cancelled']);
    const id = upstream().find((m) => m.method === 'tools/call')!.id;
    await eventually(
      () => upstream().some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === id),
      5_000,
      'the cancel reaching the server',
    );
  });
});
