// The lane's hand check of a response must accept exactly what the SDK's
// JSON-RPC message schema accepts (it replaces that schema for the lane's
// responses), and its read buffer must frame lines as the SDK's does.
import { describe, expect, it } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { installLaneReadBuffer, isLaneResponse, laneResponseProblem } from './lane-read-buffer';

const id = 'cs-lane-7';
const ok = { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' };

const CASES: Array<[string, Record<string, unknown>]> = [
  ['a plain result', { jsonrpc: '2.0', id, result: ok }],
  ['an empty result', { jsonrpc: '2.0', id, result: {} }],
  ['a result with _meta', { jsonrpc: '2.0', id, result: { ...ok, _meta: { a: 1 } } }],
  [
    'a result with a malformed serverInfo (the schema drops it, never refuses)',
    { jsonrpc: '2.0', id, result: { ...ok, _meta: { 'io.modelcontextprotocol/serverInfo': 'x' } } },
  ],
  ['a result whose _meta is an array', { jsonrpc: '2.0', id, result: { ...ok, _meta: [] } }],
  ['a result whose _meta is null', { jsonrpc: '2.0', id, result: { ...ok, _meta: null } }],
  ['a result whose _meta is a string', { jsonrpc: '2.0', id, result: { ...ok, _meta: 's' } }],
  ['a result that is an array', { jsonrpc: '2.0', id, result: [] }],
  ['a result that is null', { jsonrpc: '2.0', id, result: null }],
  ['a result that is a string', { jsonrpc: '2.0', id, result: 'done' }],
  ['an extra top-level key', { jsonrpc: '2.0', id, result: ok, extra: true }],
  ['a __proto__ key', JSON.parse(`{"jsonrpc":"2.0","id":"${id}","result":{},"__proto__":{}}`)],
  ['jsonrpc 1.0', { jsonrpc: '1.0', id, result: ok }],
  ['no jsonrpc', { id, result: ok }],
  ['both result and error', { jsonrpc: '2.0', id, result: ok, error: { code: 1, message: 'm' } }],
  ['neither result nor error', { jsonrpc: '2.0', id }],
  ['an error', { jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } }],
  ['an error with data', { jsonrpc: '2.0', id, error: { code: -32000, message: 'no', data: { x: [1] } } }],
  ['an error with extra keys', { jsonrpc: '2.0', id, error: { code: -32000, message: 'no', extra: 1 } }],
  ['an error without a message', { jsonrpc: '2.0', id, error: { code: -32000 } }],
  ['an error with a numeric message', { jsonrpc: '2.0', id, error: { code: -32000, message: 5 } }],
  ['an error with a string code', { jsonrpc: '2.0', id, error: { code: '-32000', message: 'no' } }],
  ['an error with a fractional code', { jsonrpc: '2.0', id, error: { code: 1.5, message: 'no' } }],
  ['an error with an unsafe integer code', { jsonrpc: '2.0', id, error: { code: 2 ** 60, message: 'no' } }],
  ['an error that is a string', { jsonrpc: '2.0', id, error: 'no' }],
  ['an error that is null', { jsonrpc: '2.0', id, error: null }],
];

describe("the lane's hand check of a response", () => {
  it.each(CASES)('agrees with the SDK message schema on %s', (_what, message) => {
    expect(isLaneResponse(message)).toBe(true);
    const sdkAccepts = JSONRPCMessageSchema.safeParse(message).success;
    expect(laneResponseProblem(message) === undefined).toBe(sdkAccepts);
  });

  it('takes only responses to lane ids; requests and the SDK own ids keep the schema', () => {
    expect(isLaneResponse({ jsonrpc: '2.0', id: 3, result: {} })).toBe(false);
    expect(isLaneResponse({ jsonrpc: '2.0', id: 'other', result: {} })).toBe(false);
    expect(isLaneResponse({ jsonrpc: '2.0', id, method: 'elicitation/create', params: {} })).toBe(false);
  });
});

/** A stand-in for the SDK stdio transport's read side: its buffer and the loop it runs per chunk. */
function sdkLikeTransport(maxBufferSize = 1024) {
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const t = {
    _readBuffer: { _maxBufferSize: maxBufferSize, _buffer: undefined, readMessage: () => null } as any,
    feed(chunk: string | Buffer) {
      try {
        t._readBuffer.append(Buffer.from(chunk));
        for (;;) {
          try {
            const m = t._readBuffer.readMessage();
            if (m === null) break;
            messages.push(m);
          } catch (e) {
            errors.push((e as Error).message);
          }
        }
      } catch (e) {
        errors.push((e as Error).message);
      }
    },
  };
  expect(installLaneReadBuffer(t as unknown as Transport)).toBe(true);
  return { ...t, feed: t.feed, messages, errors };
}

describe("the lane's read buffer", () => {
  it('frames lines split anywhere, skips non-JSON, checks lane responses by hand and the rest by schema', () => {
    const t = sdkLikeTransport();
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id, result: ok }),
      'not json',
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
      JSON.stringify({ jsonrpc: '2.0', id, result: ok, extra: 1 }),
      JSON.stringify({ jsonrpc: '2.0', id: 4, result: {}, extra: 1 }),
      JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} }),
    ].join('\r\n');
    const all = `${lines}\n`;
    for (let i = 0; i < all.length; i += 7) t.feed(all.slice(i, i + 7));
    expect(t.messages).toEqual([
      { jsonrpc: '2.0', id, result: ok },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      { jsonrpc: '2.0', id: 5, result: {} },
    ]);
    expect(t.errors).toHaveLength(2);
    expect(t.errors[0]).toContain('unknown key "extra"');
  });

  it('keeps the SDK bound on unread bytes, in its words', () => {
    const t = sdkLikeTransport(100);
    t.feed('x'.repeat(60));
    t.feed('y'.repeat(60));
    expect(t.errors).toEqual(['ReadBuffer exceeded maximum size of 100 bytes']);
  });

  it('a long line in many chunks is read whole', () => {
    const t = sdkLikeTransport(10_000_000);
    const text = 'z'.repeat(300_000);
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } })}\n`;
    for (let i = 0; i < line.length; i += 65_536) t.feed(line.slice(i, i + 65_536));
    expect(t.messages).toHaveLength(1);
    expect((t.messages[0] as any).result.content[0].text).toBe(text);
  });

  it('leaves a transport without the SDK read buffer alone', () => {
    expect(installLaneReadBuffer({} as Transport)).toBe(false);
  });
});
