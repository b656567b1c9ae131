import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text whatever the insertion order', () => {
    const a = { seq: 1, kind: 'note', ts: 't', detail: 'd' };
    const b = { detail: 'd', ts: 't', kind: 'note', seq: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('sorts by UTF-16 code units (RFC 8785)', () => {
    expect(canonicalJson({ '\u00e9': 1, z: 2, A: 3, '\ud83d\ude00': 4, '\uffff': 5 })).toBe(
      '{"A":3,"z":2,"é":1,"😀":4,"\uffff":5}',
    );
  });

  it('writes numbers and strings as JSON.stringify does, and round-trips', () => {
    const value = { n: [0, -0, 1e21, 1.5e-7, 0.1 + 0.2, -12], s: 'line\nbreak "quoted" \u2028 \ud800' };
    const text = canonicalJson(value);
    expect(text).toBe(
      '{"n":[0,0,1e+21,1.5e-7,0.30000000000000004,-12],"s":"line\\nbreak \\"quoted\\" \u2028 \\ud800"}',
    );
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it('leaves out undefined properties', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it.each([
    ['NaN', { a: Number.NaN }],
    ['Infinity', { a: [Infinity] }],
    ['bigint', { a: 1n }],
    ['function', { a: () => 1 }],
    ['undefined array item', { a: [undefined] }],
    ['Date', { a: new Date(0) }],
    ['Map', { a: new Map() }],
  ])('refuses %s', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
  });

  it('refuses cycles but allows shared references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle at self/);
  });
});
