// Legacy servers (SDK 1.x, 2025-11-25) over stdio and stateful HTTP, and the
// modern server over Streamable HTTP: the same host, the same gate.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/core/host';
import { readWireLog, startHttpFixture, type HttpFixture } from '../fixtures/spawn-fixture';
import { ENVELOPE_KEYS, hostFor, receivedRequests, stdioFixture } from './host-harness';

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe.each(['stdio', 'http'] as const)('legacy server over %s', (transport) => {
  let http: HttpFixture | undefined;
  beforeAll(async () => {
    if (transport === 'http') http = await startHttpFixture('legacy');
  });
  afterAll(async () => {
    await http?.close();
  });

  function setup(specs: Parameters<typeof hostFor>[1]) {
    const fx = transport === 'http' ? { entry: { url: http!.url }, wireLog: http!.wireLog } : stdioFixture('legacy');
    const h = hostFor(fx.entry, specs);
    open = h.host;
    return { ...h, wireLog: fx.wireLog };
  }

  it('falls back to initialize and answers elicitation/create through the gate', async () => {
    const { host, events } = setup([{ kind: 'decline' }]);
    const conn = await host.connect('fx');
    expect(conn.era).toBe('legacy');
    expect(conn.protocolVersion).toBe('2025-11-25');
    const { result } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'confirm_delete',
      arguments: { entryId: 3 },
    });
    expect(text(result)).toBe('declined by the user, nothing was deleted');
    expect(events.asked[0]!.question.origin).toMatchObject({
      server: 'fx',
      era: 'legacy',
      method: 'tools/call',
      name: 'confirm_delete',
    });
    expect(events.ended[0]).toMatchObject({ outcome: 'complete' });
  });

  it('declares elicitation form + url at initialize, and sends no modern envelope on legacy requests', async () => {
    const { host, wireLog } = setup([{ kind: 'accept' }]);
    await host.call({ server: 'fx', method: 'tools/call', name: 'confirm_delete', arguments: { entryId: 3 } });
    const init = receivedRequests(wireLog, 'initialize')[0]!;
    expect(init.msg.params.capabilities).toEqual({
      elicitation: { form: {}, url: {} },
      tasks: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const call = receivedRequests(wireLog, 'tools/call')[0]!;
    for (const key of ENVELOPE_KEYS) expect(call.msg.params?._meta ?? {}).not.toHaveProperty([key]);
  });

  it('fills defaults in a legacy form', async () => {
    const { host, events } = setup([{ kind: 'accept-defaults' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'book_time', arguments: {} });
    expect(result.isError).toBeFalsy();
    const answer = events.answers[0]!.answer;
    expect(answer.action).toBe('accept');
    expect(result.structuredContent).toEqual((answer as { content: unknown }).content);
  });

  it('URL mode with elicitationId, then elicitation/complete', async () => {
    const { host, events } = setup([{ kind: 'accept' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'connect_account', arguments: {} });
    expect(text(result)).toBe('account connected');
    const q = events.asked[0]!.question;
    expect(q.mode).toBe('url');
  });

  it('-32042: asks for consent, waits for completion, retries the call', async () => {
    const { host, events, wireLog } = setup([{ kind: 'accept' }]);
    // Over HTTP one fixture process serves every test: count only this test's calls.
    const before = receivedRequests(wireLog, 'tools/call').length;
    const { result, rounds } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'needs_auth',
      arguments: {},
    });
    expect(text(result)).toBe('authorized: calendar access granted');
    expect(rounds).toBe(1);
    expect(events.asked[0]!.question).toMatchObject({
      mode: 'url',
      message: 'Authorize Countersign to read your calendar',
    });
    const calls = receivedRequests(wireLog, 'tools/call').slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.msg.id).not.toBe(calls[0]!.msg.id);
  });

  it('-32042 declined: a host result that says nothing was done (isError), no retry', async () => {
    const { host, wireLog } = setup([{ kind: 'decline' }]);
    const before = receivedRequests(wireLog, 'tools/call').length;
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'needs_auth', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('declined');
    expect(text(result)).toContain('nothing was done');
    expect(receivedRequests(wireLog, 'tools/call').length - before).toBe(1);
  });
});

describe('modern server over Streamable HTTP', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpFixture('modern');
  });
  afterAll(async () => {
    await http.close();
  });

  it('detects the era in place and sends the 2026 headers and envelope', async () => {
    const { host } = hostFor({ url: http.url }, [{ kind: 'accept' }]);
    open = host;
    const conn = await host.connect('fx');
    expect(conn.era).toBe('modern');
    const { result } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'confirm_delete',
      arguments: { entryId: 11 },
    });
    expect(text(result)).toBe('deleted entry 11');
    const calls = readWireLog(http.wireLog).filter((e) => e.dir === 'in' && e.msg?.method === 'tools/call');
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.headers?.['mcp-protocol-version']).toBe('2026-07-28');
      expect(c.headers?.['mcp-method']).toBe('tools/call');
      expect(c.headers?.['mcp-name']).toBe('confirm_delete');
      for (const key of ENVELOPE_KEYS) expect(c.msg.params._meta).toHaveProperty([key]);
    }
    expect(calls[1]!.msg.params.requestState).toBeTypeOf('string');
  });
});
