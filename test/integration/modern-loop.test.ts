// The host-driven MRTR loop against the real 2026-07-28 fixture server over
// stdio, checked on the server's own wire log, not only on results.
import { afterEach, describe, expect, it } from 'vitest';
import { isHostError } from '../../electron/core/host-error';
import type { Host } from '../../electron/core/host';
import { ENVELOPE_KEYS, hostFor, receivedRequests, sentResponses, stdioFixture } from './host-harness';

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function setup(specs: Parameters<typeof hostFor>[1], extra: Parameters<typeof hostFor>[2] = {}) {
  const fx = stdioFixture('modern');
  const h = hostFor(fx.entry, specs, extra);
  open = h.host;
  return { ...h, wireLog: fx.wireLog };
}

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;

describe('modern era over stdio', () => {
  it('detects 2026-07-28 with one process and stamps the _meta envelope on every request', async () => {
    const { host, wireLog } = setup([{ kind: 'accept' }]);
    const conn = await host.connect('fx');
    expect(conn.era).toBe('modern');
    expect(conn.protocolVersion).toBe('2026-07-28');
    await conn.client.listTools();
    await host.call({ server: 'fx', method: 'tools/call', name: 'confirm_delete', arguments: { entryId: 4 } });
    const requests = receivedRequests(wireLog);
    expect(requests.map((r) => r.msg.method)).toEqual(['server/discover', 'tools/list', 'tools/call', 'tools/call']);
    // One spawn: every message came to the same server process.
    expect(new Set(requests.map((r) => r.pid)).size).toBe(1);
    for (const r of requests) {
      const meta = r.msg.params?._meta ?? {};
      for (const key of ENVELOPE_KEYS) expect(meta, `${r.msg.method} lacks ${key}`).toHaveProperty([key]);
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      // The 2025 `tasks` capability stays out of the modern envelope; the extension is declared instead.
      expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
        elicitation: { form: {}, url: {} },
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      });
      expect(meta['io.modelcontextprotocol/clientInfo']).toMatchObject({ name: 'countersign' });
    }
  });

  it("a question carries the tool's annotations from the host's tools/list, as the server set them", async () => {
    const { host, events } = setup([{ kind: 'decline' }, { kind: 'decline' }]);
    await host.listTools('fx');
    await host.call({ server: 'fx', method: 'tools/call', name: 'confirm_delete', arguments: { entryId: 4 } });
    expect(events.asked[0]!.question.origin.toolHints).toEqual({ destructive: true });
    // A tool whose listing sets no hint gets none: nothing is guessed from the spec's defaults.
    await host.call({ server: 'fx', method: 'tools/call', name: 'typed_confirm', arguments: { entryId: 4 } });
    expect(events.asked[1]!.question.origin).not.toHaveProperty('toolHints');
  });

  it('inputRequests that is not an object (42) is an invalid result, not a pacing round', async () => {
    const { host, wireLog } = setup([]);
    const error: unknown = await host
      .call({ server: 'fx', method: 'tools/call', name: 'bad_input_requests', arguments: {} })
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /server "fx" sent an invalid input_required result: inputRequests must be an object of requests by key, not number 42/,
    );
    // Not retried as if the server were pacing itself.
    expect(receivedRequests(wireLog).filter((r) => r.msg.method === 'tools/call')).toHaveLength(1);
  });

  it('confirm-only: accept, decline and cancel reach the server as themselves', async () => {
    for (const [spec, expected] of [
      ['accept', 'deleted entry 7'],
      ['decline', 'declined by the user, nothing was deleted'],
      ['cancel', 'cancelled, nothing was deleted'],
    ] as const) {
      const { host, events } = setup([{ kind: spec }]);
      const { result, rounds } = await host.call({
        server: 'fx',
        method: 'tools/call',
        name: 'confirm_delete',
        arguments: { entryId: 7 },
      });
      expect(text(result)).toBe(expected);
      expect(result.isError).toBeFalsy();
      expect(rounds).toBe(1);
      expect(events.answers.map((a) => a.answer.action)).toEqual([spec]);
      expect(events.ended[0]).toMatchObject({ outcome: 'complete', rounds: 1 });
      await host.close();
    }
  });

  it('retries with a new id, the same params, inputResponses under the same keys and requestState byte for byte', async () => {
    const { host, wireLog, events } = setup([{ kind: 'accept-defaults' }, { kind: 'accept' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'two_questions', arguments: {} });
    expect(text(result)).toBe('project: accept {"project":"cs"}; confirm: accept');
    const calls = receivedRequests(wireLog, 'tools/call');
    expect(calls).toHaveLength(2);
    const [first, retry] = calls as [NonNullable<(typeof calls)[0]>, NonNullable<(typeof calls)[0]>];
    expect(retry.msg.id).not.toBe(first.msg.id);
    expect(retry.msg.params.name).toBe(first.msg.params.name);
    expect(retry.msg.params.arguments).toEqual(first.msg.params.arguments);
    expect(first.msg.params).not.toHaveProperty('inputResponses');
    expect(first.msg.params).not.toHaveProperty('requestState');
    expect(Object.keys(retry.msg.params.inputResponses).sort()).toEqual(['confirm', 'project']);
    expect(retry.msg.params.inputResponses.project).toEqual({ action: 'accept', content: { project: 'cs' } });
    const sentState = sentResponses(wireLog).get(first.msg.id)!.msg.result.requestState;
    expect(typeof sentState).toBe('string');
    expect(retry.msg.params.requestState).toBe(sentState);
    // History gets a digest of the state, never the state.
    expect(events.answers[0]!.requestState).toEqual({
      length: sentState.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(events)).not.toContain(sentState);
  });

  it('runs a two-round dialogue, numbering the rounds', async () => {
    const { host, events } = setup([{ kind: 'accept-content', content: { name: 'Ada' } }, { kind: 'accept' }]);
    const { result, rounds } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'two_rounds',
      arguments: {},
    });
    expect(text(result)).toBe('booked for Ada after 2 rounds');
    expect(rounds).toBe(2);
    expect(events.asked.map((a) => [a.question.origin.round, a.question.origin.key])).toEqual([
      [1, 'name'],
      [2, 'confirm'],
    ]);
    expect(events.asked[1]!.question.message).toBe('Book the time for Ada?');
  });

  it('sends a form with every field kind and its defaults', async () => {
    const { host, events } = setup([{ kind: 'accept-defaults' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'book_time', arguments: {} });
    expect(result.isError).toBeFalsy();
    const q = events.asked[0]!.question;
    expect(q.mode).toBe('form');
    expect(q.origin).toMatchObject({
      server: 'fx',
      era: 'modern',
      method: 'tools/call',
      name: 'book_time',
      round: 1,
      key: 'booking',
    });
    expect(result.structuredContent).toEqual(
      events.answers[0]!.answer.action === 'accept'
        ? (events.answers[0]!.answer as { content: unknown }).content
        : null,
    );
  });

  it('pauses before re-sending a state-only round and echoes the state', async () => {
    const { host, wireLog } = setup([], { pacingDelayMs: 120 });
    const { result } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'pacing',
      arguments: { rounds: 2 },
    });
    expect(text(result)).toBe('paced 2 rounds, then done');
    const gaps = (result.structuredContent as { gapsMs: number[] }).gapsMs;
    expect(gaps).toHaveLength(2);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(100);
    for (const call of receivedRequests(wireLog, 'tools/call').slice(1))
      expect(call.msg.params).not.toHaveProperty('inputResponses');
  });

  it('URL question: analysed, consented, and completed on the retry', async () => {
    const { host, events } = setup([{ kind: 'accept' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'connect_account', arguments: {} });
    expect(text(result)).toBe('account connected');
    const q = events.asked[0]!.question;
    expect(q.mode).toBe('url');
    if (q.mode === 'url') {
      expect(q.url.host).toBe('example.com');
      expect(q.url.blocked).toBe(false);
      expect(q.url.href).toMatch(/^https:\/\/example\.com\/oauth\?state=/);
    }
  });

  it('stops a server that never stops asking at the round limit with a clear error', async () => {
    const { host, events, wireLog } = setup([], { maxRounds: 3 });
    // Specs ran out: every question is declined, and the server asks again anyway.
    const error = await host
      .call({ server: 'fx', method: 'tools/call', name: 'never_stops', arguments: {} })
      .catch((e) => e);
    expect(isHostError(error, 'round-limit')).toBe(true);
    expect(error.message).toContain('after 3 rounds');
    expect(error.message).toContain('raise --max-rounds');
    expect(receivedRequests(wireLog, 'tools/call')).toHaveLength(4);
    expect(events.ended[0]).toMatchObject({ outcome: 'round-limit' });
    expect(events.faults.map((f) => f.code)).toContain('round-limit');
  });

  it('in the app the round-limit error names Settings → Round limit, not the CLI flag', async () => {
    const { host } = setup([], { maxRounds: 2, roundLimitAdvice: 'raise Settings → Round limit to allow more' });
    const error = await host
      .call({ server: 'fx', method: 'tools/call', name: 'never_stops', arguments: {} })
      .catch((e) => e);
    expect(error.message).toContain('raise Settings → Round limit to allow more');
    expect(error.message).not.toContain('--max-rounds');
  });

  it('refuses a nested schema before anything is shown', async () => {
    const { host, events, wireLog } = setup([{ kind: 'accept' }]);
    const error = await host
      .call({ server: 'fx', method: 'tools/call', name: 'bad_schema', arguments: {} })
      .catch((e) => e);
    expect(isHostError(error, 'invalid-schema')).toBe(true);
    expect(error.message).toContain('properties.address');
    expect(events.asked).toHaveLength(0);
    expect(events.faults[0]).toMatchObject({ code: 'invalid-schema' });
    expect(receivedRequests(wireLog, 'tools/call')).toHaveLength(1);
  });

  it('treats a request for something undeclared (sampling) as a clear error', async () => {
    const { host, events } = setup([{ kind: 'accept' }]);
    const error = await host
      .call({ server: 'fx', method: 'tools/call', name: 'ask_sampling', arguments: {} })
      .catch((e) => e);
    expect(isHostError(error, 'undeclared-request')).toBe(true);
    expect(error.message).toContain('sampling/createMessage');
    expect(events.asked).toHaveLength(0);
  });

  it('refuses an answer that does not match the form, sending nothing', async () => {
    const { host, wireLog } = setup([{ kind: 'accept-content', content: { name: 42 } }]);
    const error = await host
      .call({ server: 'fx', method: 'tools/call', name: 'two_rounds', arguments: {} })
      .catch((e) => e);
    expect(isHostError(error, 'invalid-answer')).toBe(true);
    expect(error.message).toMatch(/name/i);
    expect(receivedRequests(wireLog, 'tools/call')).toHaveLength(1);
  });

  it('cancels at any moment: while a question is open the call ends as cancelled', async () => {
    const fx = stdioFixture('modern');
    const { recorder } = await import('./host-harness');
    const rec = recorder();
    const { Host } = await import('../../electron/core/host');
    const controller = new AbortController();
    const host = new Host({
      servers: { fx: fx.entry },
      observer: rec.observer,
      prompter: {
        ask: (_q, signal) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason));
            // The user cancels the call while its question is on screen.
            setTimeout(() => controller.abort(), 50);
          }),
      },
    });
    open = host;
    const error = await host
      .call({
        server: 'fx',
        method: 'tools/call',
        name: 'confirm_delete',
        arguments: { entryId: 1 },
        signal: controller.signal,
      })
      .catch((e) => e);
    expect(isHostError(error, 'cancelled')).toBe(true);
    expect(rec.events.ended[0]).toMatchObject({ outcome: 'cancelled' });
    expect(rec.events.answers[0]).toMatchObject({ decidedBy: 'call-cancelled', answer: { action: 'cancel' } });
    expect(receivedRequests(fx.wireLog, 'tools/call')).toHaveLength(1);
  });

  it('keeps inputResponses and requestState off a parallel plain request', async () => {
    const fx = stdioFixture('modern');
    const { Host } = await import('../../electron/core/host');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const host = new Host({
      servers: { fx: fx.entry },
      prompter: {
        async ask() {
          await gate;
          return { answer: { action: 'accept', content: {} }, decidedBy: 'script' };
        },
      },
    });
    open = host;
    const slow = host.call({ server: 'fx', method: 'tools/call', name: 'confirm_delete', arguments: { entryId: 9 } });
    // While the question is open, a plain call runs beside it.
    await new Promise((r) => setTimeout(r, 300));
    const plain = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'add_numbers',
      arguments: { a: 2, b: 3 },
    });
    release();
    expect(text((await slow).result)).toBe('deleted entry 9');
    expect(text(plain.result)).toBe('The sum of 2 and 3 is 5.');
    const add = receivedRequests(fx.wireLog, 'tools/call').find((r) => r.msg.params.name === 'add_numbers')!;
    expect(add.msg.params).not.toHaveProperty('inputResponses');
    expect(add.msg.params).not.toHaveProperty('requestState');
  });

  it('strips inputResponses / requestState a caller tried to smuggle into a first request', async () => {
    const { host, wireLog } = setup([{ kind: 'decline' }]);
    const conn = await host.connect('fx');
    const { runInputRequiredLoop } = await import('../../electron/core/calls/input-required-loop');
    const { QuestionGate } = await import('../../electron/core/prompter/question-gate');
    const { ScriptedPrompter } = await import('../../electron/cli/elicit-spec');
    const call = {
      callId: 'c1',
      server: 'fx',
      era: 'modern' as const,
      protocolVersion: conn.protocolVersion,
      method: 'tools/call' as const,
      name: 'confirm_delete',
    };
    // An agent forging "the human said yes" in the params it controls.
    const forged = {
      name: 'confirm_delete',
      arguments: { entryId: 5 },
      inputResponses: { confirm: { action: 'accept' } },
      requestState: 'forged',
    };
    const { result } = await runInputRequiredLoop(
      conn.client,
      'tools/call',
      forged,
      call,
      new QuestionGate(new ScriptedPrompter([{ kind: 'decline' }]), {}),
      {
        maxRounds: 10,
        pacingDelayMs: 10,
        signal: new AbortController().signal,
      },
    );
    expect(text(result)).toBe('declined by the user, nothing was deleted');
    const first = receivedRequests(wireLog, 'tools/call')[0]!;
    expect(first.msg.params).not.toHaveProperty('inputResponses');
    expect(first.msg.params).not.toHaveProperty('requestState');
  });

  it('runs prompts/get and resources/read through the same loop', async () => {
    const { host, events } = setup([{ kind: 'accept' }, { kind: 'accept' }]);
    const prompt = await host.call({
      server: 'fx',
      method: 'prompts/get',
      name: 'greeting',
      arguments: { name: 'Ada' },
    });
    expect(JSON.stringify(prompt.result)).toContain('Ada');
    const res = await host.call({ server: 'fx', method: 'resources/read', name: 'fixture://secret-note' });
    expect(Array.isArray(res.result.contents)).toBe(true);
    expect(events.asked.map((a) => a.question.origin.method)).toEqual(['prompts/get', 'resources/read']);
  });
});
