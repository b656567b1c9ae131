// The gateway's pass-through path (issue 14 §6): a plain 2026-07-28
// tools/call on stdio is read without the SDK server and answered exactly as
// the SDK path answers it. Spoken as raw JSON lines to the real gateway
// process, so the test sees the agent's wire byte for byte.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { takeable } from '../../electron/gateway/pass-through';
import { readWireLog } from '../fixtures/spawn-fixture';
import {
  GATEWAY_ENTRY,
  eventually,
  leaks,
  makeDataDir,
  serverFinalStrings,
  startApp,
  tsxLoader,
  type App,
} from './harness';

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

  it('a call whose server asks (input_required) is handed to the Host: same reply, same history, either way', async () => {
    app.reply({ action: 'accept', content: {} }, { action: 'accept', content: {} });
    const from = {
      asked: app.history.asked.length,
      answers: app.history.answers.length,
      ended: app.history.ended.length,
    };
    const fast = await ask(call(8, { name: 'fx__confirm_delete', arguments: { entryId: 8 } }));
    const sdk = await ask(
      call(9, { name: 'fx__confirm_delete', arguments: { entryId: 8 }, _meta: { progressToken: 'r' } }),
    );
    expect(fast).toEqual({ ...sdk, id: 8 });
    expect(fast.result.isError).not.toBe(true);
    // What the app recorded for each call, apart from ids and times.
    const call_ = (c: any) => c && { ...c, callId: '-', agent: String(c.agent).replace(/\(stdio-[0-9a-f]+\)/, '') };
    const asked = app.history.asked.slice(from.asked).map((e: any) => ({
      call: call_(e.call),
      message: e.question.message,
      era: e.question.era,
      round: e.question.round,
      key: e.question.key,
    }));
    const answers = app.history.answers.slice(from.answers).map((e: any) => ({
      call: call_(e.call),
      action: e.answer.action,
      decidedBy: e.decidedBy,
    }));
    const ended = app.history.ended.slice(from.ended).map((e: any) => ({ ...e, call: call_(e.call), endedAt: '-' }));
    expect(asked).toHaveLength(2);
    expect(asked[0]).toEqual(asked[1]);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toEqual(answers[1]);
    expect(ended).toHaveLength(2);
    expect(ended[0]).toEqual(ended[1]);
    expect(ended[0]).toMatchObject({ outcome: 'complete', rounds: 1, call: { name: 'confirm_delete', server: 'fx' } });
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

/** The real gateway as a process spoken to in raw JSON lines: every message it sends is kept. */
function rawGateway(dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', tsxLoader, GATEWAY_ENTRY], {
    env: {
      ...getDefaultEnvironment(),
      COUNTERSIGN_DATA_DIR: dataDir,
      COUNTERSIGN_GATEWAY_AUTOSTART: '0',
      ...env,
    },
  });
  const received: any[] = [];
  const waiters = new Map<string | number, (m: any) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    received.push(m);
    if (m.id !== undefined) waiters.get(m.id)?.(m);
  });
  const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
  const reply = (id: string | number) => new Promise<any>((resolve) => waiters.set(id, resolve));
  const ask = (m: { id: string | number; [k: string]: unknown }) => {
    const r = reply(m.id);
    send(m);
    return r;
  };
  const close = async () => {
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  };
  return { child, received, send, ask, close };
}

describe('every branch of a pass-through call against a raw server, next to the SDK path', () => {
  const RAW = fileURLToPath(new URL('../fixtures/servers/raw-server.ts', import.meta.url));
  const serverLog = join(mkdtempSync(join(tmpdir(), 'cs-raw-server-')), 'in.jsonl');
  let app: App;
  let gw: ReturnType<typeof rawGateway>;
  let short: ReturnType<typeof rawGateway>;
  let n = 0;
  const relist = (via = gw) =>
    via.ask({ jsonrpc: '2.0', id: `list-${++n}`, method: 'tools/list', params: { _meta: ENVELOPE } });
  const upstream = (): any[] =>
    existsSync(serverLog)
      ? readFileSync(serverLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];

  /**
   * The same call both ways: first the pass-through path (right after a
   * listing, so the tool is known and the server connected), then the SDK
   * path (a progress token sends it there). Returns both replies, ids equalised.
   */
  async function bothWays(name: string, args: Record<string, unknown> = {}, via = gw) {
    await relist(via);
    const fastId = `fast-${++n}`;
    const fast = await via.ask(call(fastId, { name: `raw__${name}`, arguments: args }));
    await relist(via);
    const sdkId = `sdk-${++n}`;
    const sdk = await via.ask(
      call(sdkId, { name: `raw__${name}`, arguments: args, _meta: { progressToken: `p-${n}` } }),
    );
    return { fast: { ...fast, id: 'x' }, sdk: { ...sdk, id: 'x' } };
  }

  beforeAll(async () => {
    const made = makeDataDir({
      raw: { command: process.execPath, args: ['--import', tsxLoader, RAW], env: { RAW_SERVER_LOG: serverLog } },
    });
    app = await startApp(made.dataDir);
    // A backstop under the test's own timeout, so a call that never ends fails with the gateway's message, not
    // vitest's. Roomy: reading a message over the 10 MiB limit takes the SDK's stdio reader seconds (it copies
    // its buffer on every chunk), and at 5 s, with two CPUs shared with other tests, it ran out of time.
    gw = rawGateway(made.dataDir, { COUNTERSIGN_GATEWAY_REQUEST_TIMEOUT_MS: '25000' });
    // A short one, only for calls that never end (a server that never answers, or waits for an answer the
    // client never sends): it ends them in the test's time.
    short = rawGateway(made.dataDir, { COUNTERSIGN_GATEWAY_REQUEST_TIMEOUT_MS: '3000' });
    for (const via of [gw, short]) {
      const listed = await relist(via);
      expect(listed.result.tools.map((t: { name: string }) => t.name)).toContain('raw__plain');
    }
  });

  afterAll(async () => {
    await short?.close();
    await gw?.close();
    await app?.close();
  });

  it('a plain result and a server error are the same bytes either way, and neither is in the history', async () => {
    const before = { ...app.history, asked: app.history.asked.length, ended: app.history.ended.length };
    const plain = await bothWays('plain');
    expect(plain.fast).toEqual(plain.sdk);
    expect(plain.fast.result.content).toEqual([{ type: 'text', text: 'plain' }]);
    const fail = await bothWays('fail');
    expect(fail.fast).toEqual(fail.sdk);
    expect(fail.fast.error).toEqual({ code: -32000, message: 'the tool failed on purpose' });
    // Calls that asked nothing stay out of the history, on both paths.
    expect(app.history.asked.length).toBe(before.asked);
    expect(app.history.ended.length).toBe(before.ended);
  });

  it("a server's own request during a 2026-07-28 call is answered by neither path and reaches no human", async () => {
    // 2026-07-28 has no server-to-client requests (questions come as input_required):
    // the SDK client leaves elicitation/create unanswered, so the call ends at the backstop.
    const shown = app.shown.length;
    const { fast, sdk } = await bothWays('ask_mid_call', {}, short);
    expect(fast).toEqual(sdk);
    expect(JSON.stringify(fast)).toContain('did not answer in time');
    expect(app.shown.length).toBe(shown);
    expect(upstream().filter((m) => typeof m.id === 'string' && m.id.startsWith('ask-'))).toEqual([]);
  });

  it('a server that never answers in time, or answers with a malformed envelope, ends the same way', async () => {
    const slow = await bothWays('slow', { ms: 5000 }, short);
    expect(slow.fast).toEqual(slow.sdk);
    expect(JSON.stringify(slow.fast)).toContain('did not answer in time (3000 ms)');
    const bad = await bothWays('bad_envelope', {}, short);
    expect(bad.fast).toEqual(bad.sdk);
    expect(JSON.stringify(bad.fast)).toContain('did not answer in time');
  });

  it('a server closing mid-call, a result too deep and one too large are refused the same way', async () => {
    const closed = await bothWays('close_mid_call');
    expect(closed.fast).toEqual(closed.sdk);
    expect(JSON.stringify(closed.fast)).toMatch(
      /server \\"raw\\" (closed the connection|.*connection closed|exited with code 0)/,
    );
    const deep = await bothWays('deep');
    expect(deep.fast).toEqual(deep.sdk);
    expect(JSON.stringify(deep.fast)).toContain('nested more than 256 levels deep');
    const big = await bothWays('big');
    expect(big.fast).toEqual(big.sdk);
    expect(JSON.stringify(big.fast)).toContain("larger than the host's limit");
  });

  it("the agent's notifications/cancelled cancels upstream and gets no response, either way", async () => {
    for (const sdk of [false, true]) {
      await relist();
      const id = `cancel-${sdk}`;
      const sent = () => upstream().filter((m) => m.method === 'tools/call' && m.params?.name === 'slow');
      const count = sent().length;
      gw.send(
        call(id, { name: 'raw__slow', arguments: { ms: 1200 }, ...(sdk ? { _meta: { progressToken: id } } : {}) }),
      );
      await eventually(() => sent().length > count, 5_000, 'the call reaching the server');
      const upstreamId = sent().at(-1).id;
      gw.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'no longer needed' },
      });
      await eventually(
        () => upstream().some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === upstreamId),
        5_000,
        'the cancel reaching the server',
      );
      // Past the server's own answer: nothing came back for the cancelled id.
      await new Promise((r) => setTimeout(r, 1500));
      expect(gw.received.filter((m) => m.id === id)).toEqual([]);
    }
    const after = await bothWays('plain');
    expect(after.fast).toEqual(after.sdk);
  });
});
