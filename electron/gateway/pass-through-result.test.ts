// The pass-through path's agent result is made in one pass; the reference
// is the two steps it replaces: cleanResult (results.ts), then the stamp
// (content, resultType, the gateway's serverInfo) on the cleaned result.
import { describe, expect, it } from 'vitest';
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { GATEWAY_INFO } from './agent-server';
import { agentResult } from './pass-through';
import { cleanResult, toolFailure } from './results';
import { HostError } from '../core/host-error';

function reference(result: Record<string, unknown>): Record<string, unknown> {
  const cleaned = cleanResult(result);
  const meta =
    typeof cleaned._meta === 'object' && cleaned._meta !== null && !Array.isArray(cleaned._meta) ? cleaned._meta : {};
  return {
    ...cleaned,
    ...(cleaned.content === undefined ? { content: [] } : {}),
    resultType: 'complete',
    _meta: { ...meta, [SERVER_INFO_META_KEY]: GATEWAY_INFO },
  };
}

/** Same value, same key order at every level (JSON text is what the agent gets). */
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

const serverInfo = { [SERVER_INFO_META_KEY]: { name: 'fx', version: '1' } };
const text = [{ type: 'text', text: 'ok' }];

describe('agentResult', () => {
  it.each([
    ['a plain text result with the server info', { _meta: serverInfo, content: text }],
    ['no _meta', { content: text, isError: false }],
    ['no content', { structuredContent: { a: 1 } }],
    ['vendor _meta beside the reserved one', { _meta: { ...serverInfo, 'vendor/x': 1, 'v/y': [2] }, content: text }],
    ['only vendor _meta, after content', { content: text, _meta: { 'vendor/x': 1 } }],
    ['an empty _meta', { content: text, _meta: {} }],
    ['_meta that is an array', { content: text, _meta: ['a', 'b'] }],
    ['_meta that is a string', { content: text, _meta: 'x' }],
    ['_meta that is null', { _meta: null, content: text }],
    [
      'multi-round-trip material',
      { resultType: 'complete', content: text, requestState: 's', inputRequests: {}, inputResponses: {} },
    ],
    ['isError and structured content', { content: text, structuredContent: { n: 1 }, isError: true, resultType: 'x' }],
    ['a host failure', toolFailure(new HostError('connection', 'gone'), 'fx') as Record<string, unknown>],
  ])('%s: as cleaning then stamping', (_what, result) => {
    same(agentResult(result), reference(result));
  });

  it('a __proto__ key, top level or in _meta, takes the two-step way (own keys, as JSON.parse makes them)', () => {
    for (const line of [
      '{"content":[],"__proto__":{"polluted":true}}',
      '{"content":[],"_meta":{"__proto__":{"polluted":true},"vendor/x":1}}',
    ]) {
      const result = JSON.parse(line) as Record<string, unknown>;
      same(agentResult(result), reference(result));
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    }
  });

  it('agrees with the two steps on generated results', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const keys = ['content', 'structuredContent', 'isError', 'resultType', 'requestState', '_meta', 'vendor'];
    const metaKeys = [SERVER_INFO_META_KEY, 'io.modelcontextprotocol/other', 'vendor/a', 'b'];
    const values = () => [text, 1, 'x', null, true, { a: 1 }, []][rnd(7)];
    for (let i = 0; i < 5000; i++) {
      const result: Record<string, unknown> = {};
      for (const k of keys) {
        if (rnd(2) === 0) continue;
        if (k === '_meta' && rnd(4) > 0) {
          const meta: Record<string, unknown> = {};
          for (const mk of metaKeys) if (rnd(2) === 0) meta[mk] = values();
          result[k] = meta;
        } else result[k] = values();
      }
      same(agentResult(result), reference(result));
    }
  });
});
