// The gateway's pass-through path (issue 14 §6): a plain 2026-07-28
// tools/call on stdio is read without the SDK server and answered exactly as
// the SDK path answers it. Spoken as raw JSON lines to the real gateway
// process, so the test sees the agent's wire byte for byte.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { takeable } from '../../electron/gateway/pass-through';
import { readWireLog } from '../fixtures/spawn-fixture';
import { GATEWAY_ENTRY, leaks, makeDataDir, serverFinalStrings, startApp, tsxLoader, type App } from './harness';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const call = (id: number | string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as object | undefined) } },
});

describe('which requests the pass-through path takes', () => {
  it('takes a plain tools/call with the 2026-07-28 envelope only', () => {
    expect(takeable(call(1, { name: 'fx__echo', arguments: { text: 'a' } }))).toMatchObject({
      id: 1,
      name: 'fx__echo',
    });
    expect(takeable(call('x', { name: 'fx__echo' }))).toMatchObject({ id: 'x' });
  });

  it.each([
    ['another method', { ...call(1, { name: 'a' }), method: 'prompts/get' }],
    ['a progress token', call(1, { name: 'a', _meta: { progressToken: 7 } })],
    [
      'a declared Tasks extension',
      call(1, {
        name: 'a',
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        },
      }),
    ],
    ['inputResponses from the agent', call(1, { name: 'a', inputResponses: { k: { action: 'accept' } } })],
    ['requestState from the agent', call(1, { name: 'a', requestState: 'abc' })],
    ['a legacy task request', call(1, { name: 'a', task: { ttl: 1000 } })],
    ['no envelope (2025-11-25)', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } }],
    [
      'another protocol version',
      call(1, { name: 'a', _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }),
    ],
    ['arguments that are not an object', call(1, { name: 'a', arguments: [1] })],
    ['a non-integer id', call(1.5, { name: 'a' })],
    ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: call(1, { name: 'a' }).params }],
  ])('leaves a request with %s to the SDK', (_what, message) => {
    expect(takeable(message)).toBeUndefined();
  });
});

describe('the pass-through path through the real gateway', () => {
  let app: App;
  let gateway: ChildProcessWithoutNullStreams;
  let wireLog: string;
  const received: any[] = [];
  const waiters = new Map<string | number, (m: any) => void>();

  const send = (m: unknown) => gateway.stdin.write(`${JSON.stringify(m)}\n`);
  const reply = (id: string | number) => new Promise<any>((resolve) => waiters.set(id, resolve));
  const ask = (m: { id: string | number; [k: string]: unknown }) => {
    const r = reply(m.id);
    send(m);
    return r;
  };

  beforeAll(async () => {
    const made = makeDataDir({ fx: 'modern' });
    wireLog = made.wireLogs.fx!;
    app = await startApp(made.dataDir);
    gateway = spawn(process.execPath, ['--import', tsxLoader, GATEWAY_ENTRY], {
      env: { ...getDefaultEnvironment(), COUNTERSIGN_DATA_DIR: made.dataDir, COUNTERSIGN_GATEWAY_AUTOSTART: '0' },
    });
    createInterface({ input: gateway.stdout }).on('line', (line) => {
      const m = JSON.parse(line);
      received.push(m);
      if (m.id !== undefined) waiters.get(m.id)?.(m);
    });
    const listed = await ask({
      jsonrpc: '2.0',
      id: 'list',
      method: 'tools/list',
      params: { _meta: ENVELOPE },
    });
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toContain('fx__echo');
  });

  afterAll(async () => {
    gateway?.stdin.end();
    await new Promise((r) => gateway?.once('exit', r));
    await app?.close();
  });

  it('answers exactly as the SDK path does', async () => {
    const fast = await ask(call(1, { name: 'fx__echo', arguments: { text: 'ping' } }));
    // A progress token sends the same call through the SDK server.
    const sdk = await ask(call(2, { name: 'fx__echo', arguments: { text: 'ping' }, _meta: { progressToken: 'p' } }));
    expect(fast).toEqual({ ...sdk, id: 1 });
    expect(fast.result).toMatchObject({ content: [{ type: 'text', text: 'ping' }], resultType: 'complete' });
  });

  it('a failure is the same fixed sentence either way', async () => {
    app.reply({ action: 'decline' }, { action: 'decline' });
    const fast = await ask(call(3, { name: 'fx__confirm_delete', arguments: { entryId: 3 } }));
    const sdk = await ask(
      call(4, { name: 'fx__confirm_delete', arguments: { entryId: 3 }, _meta: { progressToken: 'q' } }),
    );
    expect(fast).toEqual({ ...sdk, id: 3 });
    expect(app.shown.at(-2)!.message).toBe('Delete time entry 3?');
  });

  it("the agent's cancel withdraws the dialog; nothing is answered for that id", async () => {
    const shown = app.nextQuestion();
    send(call(5, { name: 'fx__confirm_delete', arguments: { entryId: 5 } }));
    const q = await shown;
    const removal = app.nextRemoval();
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'changed my mind' } });
    expect(await removal).toMatchObject({ questionId: q.id, reason: 'call-cancelled' });
    const after = await ask(call(6, { name: 'fx__echo', arguments: { text: 'still here' } }));
    expect(after.result.content[0].text).toBe('still here');
    expect(received.filter((m) => m.id === 5)).toEqual([]);
  });

  it('what an agent puts beside the call never reaches the server', async () => {
    const smuggled = await ask(
      call(7, {
        name: 'fx__echo',
        arguments: { text: 'hi' },
        inputResponses: { confirm: { action: 'accept' } },
        requestState: 'agent-made-state',
      }),
    );
    expect(smuggled.result?.content?.[0]?.text ?? smuggled.error).toBeDefined();
    const calls = readWireLog(wireLog).filter((e) => e.dir === 'in' && e.msg?.method === 'tools/call');
    expect(JSON.stringify(calls)).not.toContain('agent-made-state');
    const echoes = calls.filter((c) => c.msg.params.name === 'echo');
    expect(echoes.length).toBeGreaterThan(0);
    for (const c of echoes) expect(c.msg.params).not.toHaveProperty('inputResponses');
  });

  it('nothing of a question reached the agent', () => {
    expect(leaks(received, ['Delete time entry 3?', 'Delete time entry 5?'], serverFinalStrings(wireLog))).toEqual([]);
  });
});
