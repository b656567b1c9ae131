// The depth check may skip its walk when the message's JSON text is too
// short to be too deep (the reader notes the text's length, noteTextLength,
// and depthProblem reads the note); the verdict must be the walk's on every
// text, and the bound must be exact (a text one character longer can be
// refused).
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { LIMITS } from '../limits';
import { installLaneReadBuffer } from './lane-read-buffer';
import { depthProblem, guardIncoming, noteTextLength, tooShortToBeTooDeep } from './wire-checks';

/** `levels` arrays in each other, in the shortest text that holds them. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('the depth check with the text length known', () => {
  it('the bound is exact: the shortest refused text is 2 × (limit + 2) characters', () => {
    for (const max of [0, 1, 2, 5, LIMITS.messageDepth]) {
      const refused = nested(max + 2);
      expect(depthProblem(JSON.parse(refused), 's', max)).not.toBeNull();
      expect(refused.length).toBe(2 * (max + 2));
      expect(tooShortToBeTooDeep(refused.length, max)).toBe(false);
      const noted = JSON.parse(refused) as object;
      noteTextLength(noted, refused.length);
      expect(depthProblem(noted, 's', max)).not.toBeNull();
      const kept = nested(max + 1);
      expect(depthProblem(JSON.parse(kept), 's', max)).toBeNull();
      expect(tooShortToBeTooDeep(refused.length - 1, max)).toBe(true);
    }
    expect(tooShortToBeTooDeep(515)).toBe(true);
    expect(tooShortToBeTooDeep(516)).toBe(false);
  });

  it('gives the walk’s verdict on 30,000 generated texts (small limits, so many are near the bound)', () => {
    let seed = 256;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth <= 0 || r < 0.2) return [0, '', 'a[', '{', null, true][Math.floor(rand() * 6)];
      const n = Math.floor(rand() * 3);
      if (r < 0.6) return Array.from({ length: n }, () => value(depth - 1));
      return Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`${'k'.repeat(i)}`, value(depth - 1)]));
    };
    let refused = 0;
    let spared = 0;
    for (let i = 0; i < 30_000; i++) {
      const max = Math.floor(rand() * 6);
      const v = value(Math.floor(rand() * (max + 5)));
      // Compact texts come closest to the bound; spaced and duplicate-key texts are longer or shallower.
      const text =
        rand() < 0.8
          ? JSON.stringify(v)
          : rand() < 0.5
            ? JSON.stringify(v, null, 1)
            : `{"a":${JSON.stringify(v)},"a":1}`;
      const parsed = JSON.parse(text) as unknown;
      const slow = depthProblem(parsed, 's', max);
      if (typeof parsed === 'object' && parsed !== null) noteTextLength(parsed, text.length);
      expect(depthProblem(parsed, 's', max), text).toBe(slow);
      if (slow) refused += 1;
      if (tooShortToBeTooDeep(text.length, max)) spared += 1;
    }
    expect(refused).toBeGreaterThan(1_000);
    expect(spared).toBeGreaterThan(1_000);
  });
});

describe('guardIncoming with the lane read buffer', () => {
  /** The SDK stdio transport's read loop over the lane's buffer, with the guard on its onmessage. */
  function transport() {
    const delivered: JSONRPCMessage[] = [];
    const t = {
      // The SDK's buffer shape; installLaneReadBuffer replaces it with the lane's.
      _readBuffer: { _maxBufferSize: 1 << 20, _buffer: undefined, readMessage: () => null } as unknown as {
        append(b: Buffer): void;
        readMessage(): JSONRPCMessage | null;
      },
      onmessage: (m: JSONRPCMessage) => void delivered.push(m),
      send: () => Promise.resolve(),
      feed(line: string) {
        t._readBuffer.append(Buffer.from(`${line}\n`));
        for (let m = t._readBuffer.readMessage(); m; m = t._readBuffer.readMessage()) t.onmessage(m);
      },
    };
    expect(installLaneReadBuffer(t as unknown as Transport)).toBe(true);
    guardIncoming(t as unknown as Transport, 'deep');
    return { feed: t.feed, delivered, onmessage: (m: JSONRPCMessage) => t.onmessage(m) };
  }

  /** A lane response whose result is `levels` levels deep counted from the envelope. */
  const response = (levels: number) =>
    `{"jsonrpc":"2.0","id":"cs-lane-1","result":{"a":${nested(levels - 2)}}}`.replace('[]', '[1]');

  it('refuses a lane response one level over the limit and passes one at the limit, read from the wire', () => {
    const t = transport();
    t.feed(response(LIMITS.messageDepth + 1));
    t.feed(response(LIMITS.messageDepth + 2));
    t.feed(JSON.stringify({ jsonrpc: '2.0', id: 'cs-lane-2', result: { content: [{ type: 'text', text: 'hi' }] } }));
    expect(t.delivered).toHaveLength(3);
    expect('result' in t.delivered[0]!).toBe(true);
    expect((t.delivered[1] as { error?: { message?: string } }).error?.message).toContain('nested more than 256');
    expect(t.delivered[2]).toEqual({
      jsonrpc: '2.0',
      id: 'cs-lane-2',
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('uses the noted length (a message noted as short is not walked; unnoted, it is)', () => {
    const t = transport();
    const deep = JSON.parse(response(LIMITS.messageDepth + 2)) as JSONRPCMessage;
    t.onmessage(deep);
    expect('error' in t.delivered[0]!).toBe(true);
    // The note is by identity: a short line noted but not yet delivered spares no other message.
    noteTextLength({ jsonrpc: '2.0', id: 'cs-lane-9', result: {} }, 40);
    t.onmessage(JSON.parse(response(LIMITS.messageDepth + 2)) as JSONRPCMessage);
    expect('error' in t.delivered.at(-1)!).toBe(true);
    t.delivered.length = 1;
    // A false note, to show the guard reads it: the reader is the only one that notes, with the line's true length.
    const lied = JSON.parse(response(LIMITS.messageDepth + 2)) as JSONRPCMessage;
    noteTextLength(lied, 10);
    t.onmessage(lied);
    expect(t.delivered[1]).toBe(lied);
  });
});
