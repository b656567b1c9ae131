import { describe, expect, it } from 'vitest';
import {
  APPROVAL_PROTOCOL,
  FrameTooLargeError,
  LineReader,
  appFrameSchema,
  encodeFrame,
  gatewayFrameSchema,
  parseFrame,
} from './protocol';

describe('LineReader', () => {
  it('splits lines across chunks and skips blank ones', () => {
    const r = new LineReader();
    expect(r.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(r.push(Buffer.from(':2}\n\n'))).toEqual(['{"b":2}']);
    expect(r.push(Buffer.from('x\ny\n'))).toEqual(['x', 'y']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const r = new LineReader();
    const bytes = Buffer.from('"Löschen?"\n');
    expect(r.push(bytes.subarray(0, 3))).toEqual([]);
    expect(r.push(bytes.subarray(3))).toEqual(['"Löschen?"']);
  });

  it('refuses a line longer than the cap before holding it whole', () => {
    const r = new LineReader(10);
    expect(() => r.push(Buffer.from('0123456789A'))).toThrow(FrameTooLargeError);
    const r2 = new LineReader(10);
    r2.push(Buffer.from('01234'));
    expect(() => r2.push(Buffer.from('56789AB\n'))).toThrow(/longer than 10 bytes/);
  });
});

describe('frames', () => {
  const call = {
    callId: 'c1',
    server: 'kimai',
    era: 'modern',
    protocolVersion: '2026-07-28',
    method: 'tools/call',
    name: 'delete',
    agent: 'claude-code#stdio-abc123',
  };
  const question = { mode: 'form', message: 'Delete?', requestedSchema: { type: 'object', properties: {} } };
  const context = { server: 'kimai', era: 'modern', method: 'tools/call', name: 'delete', round: 1, key: 'confirm' };

  it('accepts every frame kind of both directions, and round-trips them', () => {
    for (const frame of [
      { type: 'hello', protocol: APPROVAL_PROTOCOL, nonce: 'n'.repeat(43) },
      { type: 'prove', proof: 'a'.repeat(64) },
      { type: 'ask', id: 'q1', question, context, call },
      // The server's question as it came, whatever its values: the app's gate judges them.
      {
        type: 'ask',
        id: 'q2',
        question: { mode: 'url', message: 7, url: { href: 'https://example.com' } },
        context,
        call: null,
      },
      { type: 'cancel', id: 'q1' },
      { type: 'call-ended', callId: 'c1', outcome: 'complete', isError: false, rounds: 1 },
      { type: 'call-ended', callId: 'c1', outcome: 'error', error: 'server went away', rounds: 0 },
      { type: 'sign-in-end', id: 'q3', outcome: 'failed', error: 'refused' },
    ]) {
      const clean = JSON.parse(JSON.stringify(frame));
      const parsed = parseFrame(encodeFrame(clean).trim(), gatewayFrameSchema);
      expect(parsed, JSON.stringify(frame)).toMatchObject({ ok: true });
    }
    for (const frame of [
      { type: 'challenge', nonce: 'N'.repeat(43), proof: 'b'.repeat(64) },
      { type: 'welcome', protocol: APPROVAL_PROTOCOL, app: 'desktop' },
      {
        type: 'answer',
        id: 'q1',
        answer: { action: 'accept', content: { a: 'b', n: 1, tags: ['x'] } },
        decidedBy: 'human',
        urlOpened: true,
      },
      { type: 'withdrawn', id: 'q1', reason: 'closing' },
      { type: 'withdrawn', id: 'q1', reason: 'nobody can see it', code: 'not-visible' },
      { type: 'bye', reason: 'wrong version' },
    ]) {
      expect(parseFrame(JSON.stringify(frame), appFrameSchema)).toEqual({ ok: true, frame });
    }
  });

  it('refuses with a reason: not JSON, unknown types, extra keys, bad values', () => {
    expect(parseFrame('{', gatewayFrameSchema)).toEqual({ ok: false, reason: 'a frame is not JSON' });
    expect(parseFrame('{"type":"answer","id":"x"}', gatewayFrameSchema)).toMatchObject({ ok: false });
    expect(parseFrame(JSON.stringify({ type: 'cancel', id: 'q', extra: 1 }), gatewayFrameSchema)).toMatchObject({
      ok: false,
    });
    expect(
      parseFrame(
        JSON.stringify({
          type: 'ask',
          id: 'q',
          question,
          context: { ...context, round: 0 },
          call,
        }),
        gatewayFrameSchema,
      ),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('context.round'),
    });
    // An answer with content that MCP does not allow.
    expect(
      parseFrame(
        JSON.stringify({
          type: 'answer',
          id: 'q',
          answer: { action: 'accept', content: { a: { nested: 1 } } },
          decidedBy: 'human',
        }),
        appFrameSchema,
      ),
    ).toMatchObject({ ok: false });
    expect(
      parseFrame(
        JSON.stringify({ type: 'answer', id: 'q', answer: { action: 'decline' }, decidedBy: 'the model' }),
        appFrameSchema,
      ),
    ).toMatchObject({ ok: false });
  });
});
