// The checks on what a server sends, made on the transport's onmessage (the
// SDK's public Transport interface) before the SDK client reads a message:
// a result nested deeper than the host's limit, and an input_required whose
// inputRequests is not an object, become an error for their request.
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { LIMITS } from '../limits';
import { depthProblem, guardIncoming } from './wire-checks';

/** `levels` arrays in each other, in the shortest text that holds them. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('the depth check', () => {
  it('refuses one level over the limit and passes the limit itself', () => {
    for (const max of [0, 1, 2, 5, LIMITS.messageDepth]) {
      expect(depthProblem(JSON.parse(nested(max + 2)), 's', max)).not.toBeNull();
      expect(depthProblem(JSON.parse(nested(max + 1)), 's', max)).toBeNull();
    }
  });
});

describe('guardIncoming', () => {
  /** A transport as the SDK client left it after connect, with the guard on its onmessage. */
  function transport() {
    const delivered: JSONRPCMessage[] = [];
    const sent: JSONRPCMessage[] = [];
    const t: Transport = {
      start: () => Promise.resolve(),
      close: () => Promise.resolve(),
      send: (m) => {
        sent.push(m);
        return Promise.resolve();
      },
      onmessage: (m) => void delivered.push(m),
    };
    guardIncoming(t, 'deep');
    const feed = (line: string) => t.onmessage?.(JSON.parse(line) as JSONRPCMessage);
    return { feed, delivered, sent };
  }

  /** A response whose result is `levels` levels deep counted from the envelope. */
  const response = (levels: number) =>
    `{"jsonrpc":"2.0","id":1,"result":{"a":${nested(levels - 2)}}}`.replace('[]', '[1]');

  it('refuses a response one level over the limit and passes one at the limit', () => {
    const t = transport();
    t.feed(response(LIMITS.messageDepth + 1));
    t.feed(response(LIMITS.messageDepth + 2));
    t.feed(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }] } }));
    expect(t.delivered).toHaveLength(3);
    expect('result' in t.delivered[0]!).toBe(true);
    expect((t.delivered[1] as { error?: { message?: string } }).error?.message).toContain('nested more than 256');
    expect(t.delivered[2]).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  it("refuses a server's own request that is too deep back to the server, and drops such a notification", () => {
    const t = transport();
    const deep = nested(LIMITS.messageDepth + 2);
    t.feed(`{"jsonrpc":"2.0","id":"r1","method":"elicitation/create","params":{"a":${deep}}}`);
    t.feed(`{"jsonrpc":"2.0","method":"notifications/message","params":{"a":${deep}}}`);
    expect(t.delivered).toEqual([]);
    expect(t.sent).toMatchObject([{ id: 'r1', error: { code: -32600 } }]);
  });

  it('turns an input_required whose inputRequests is not an object into an error for its request', () => {
    const t = transport();
    t.feed('{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","inputRequests":42}}');
    expect((t.delivered[0] as { error?: { message?: string } }).error?.message).toContain(
      'inputRequests must be an object of requests by key, not number 42',
    );
  });
});
