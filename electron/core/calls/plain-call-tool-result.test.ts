// The hand check must never accept what the CallToolResult schema refuses,
// and for what it accepts it must return exactly zod's output (same values,
// same key order, fresh objects where zod makes them). laneLeg uses it in
// place of the schema, so these cases are the proof that no verdict moved.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { plainCallToolResult } from './plain-call-tool-result';
import { wrappedSchema } from './input-required-loop';

/** What laneLeg's schema gives: the value, or undefined when it refuses. */
function viaZod(value: unknown): { ok: true; value: unknown } | { ok: false } {
  const r = wrappedSchema('tools/call')['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('the schema validated asynchronously');
  return r.issues ? { ok: false } : { ok: true, value: r.value };
}

/** Key order too, all the way down (isDeepStrictEqual ignores it). */
function shapeOf(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(shapeOf);
  return Reflect.ownKeys(v).map((k) => [String(k), shapeOf((v as Record<string | symbol, unknown>)[k])]);
}

/** The same verdict as zod; when accepted, zod's output exactly. */
function expectSame(value: unknown, label: string): boolean {
  const fast = plainCallToolResult(value);
  const zod = viaZod(value);
  if (fast === undefined) return false;
  expect(zod.ok, `${label}: the hand check accepted what the schema refuses`).toBe(true);
  if (!zod.ok) return true;
  expect(isDeepStrictEqual(fast, zod.value), `${label}: a different value than zod's`).toBe(true);
  expect(shapeOf(fast), `${label}: a different key order than zod's`).toEqual(shapeOf(zod.value));
  expect(fast, `${label}: zod returns a fresh object`).not.toBe(value);
  return true;
}

const text = { type: 'text', text: 'hi' };
const INFO = 'io.modelcontextprotocol/serverInfo';

const ACCEPTED: Array<[string, unknown]> = [
  ['one text part', { content: [text] }],
  ['no parts', { content: [] }],
  ['text before type', { content: [{ text: 'a', type: 'text' }] }],
  ['isError', { content: [text], isError: true }],
  ['isError false', { isError: false, content: [text] }],
  ['resultType complete', { resultType: 'complete', content: [text] }],
  ['structuredContent', { structuredContent: { n: [1, 2] }, content: [text] }],
  ['structuredContent null', { content: [text], structuredContent: null }],
  ['_meta', { content: [text], _meta: { a: { b: 1 }, z: 'x' } }],
  ['_meta empty', { _meta: {}, content: [text] }],
  [
    'everything, in an odd order',
    { resultType: 'complete', isError: false, structuredContent: 3, content: [text, text], _meta: { k: 1 } },
  ],
  ['many parts', { content: Array.from({ length: 50 }, (_, i) => ({ type: 'text', text: `p${i}` })) }],
  ['an empty text', { content: [{ type: 'text', text: '' }] }],
  [
    'what the SDK server sends',
    { content: [text], resultType: 'complete', _meta: { [INFO]: { name: 'n', version: '1' } } },
  ],
  [
    'serverInfo, version first, among other keys',
    { content: [text], _meta: { a: 1, [INFO]: { version: '1', name: 'n' }, b: 2 } },
  ],
  ['the task-wire stand-in', { resultType: 'complete', content: [], _meta: { 'countersign/task-handle': 'n' } }],
];

// Each goes to zod (undefined), whatever zod then makes of it.
const LEFT_TO_ZOD: Array<[string, unknown]> = [
  ['no content (zod defaults it to [])', {}],
  ['content not an array', { content: 'hi' }],
  ['content an object', { content: { 0: text } }],
  ['a part with annotations (zod checks them)', { content: [{ ...text, annotations: { priority: 0.5 } }] }],
  ['a part with bad annotations', { content: [{ ...text, annotations: { priority: 7 } }] }],
  ['a part with _meta', { content: [{ ...text, _meta: { a: 1 } }] }],
  ['a part with an extra key (zod strips it)', { content: [{ ...text, extra: 1 }] }],
  ['a part whose text is a number', { content: [{ type: 'text', text: 5 }] }],
  ['a part without text', { content: [{ type: 'text' }] }],
  ['an image part', { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] }],
  ['an image part without data', { content: [{ type: 'image', mimeType: 'image/png' }] }],
  ['a part of unknown type', { content: [{ type: 'video', text: 'hi' }] }],
  ['a part that is a string', { content: ['hi'] }],
  ['a part that is null', { content: [null] }],
  ['a part that is an array', { content: [['text', 'hi']] }],
  ['isError a string', { content: [text], isError: 'yes' }],
  ['isError null', { content: [text], isError: null }],
  ['resultType input_required', { resultType: 'input_required', inputRequests: {} }],
  ['resultType task', { resultType: 'task', content: [text] }],
  ['resultType unknown', { resultType: 'later', content: [text] }],
  ['an unknown key (kept by the loose schema)', { content: [text], extra: 1 }],
  ['a toolResult', { content: [text], toolResult: 1 }],
  ['_meta an array', { content: [text], _meta: [] }],
  ['_meta null', { content: [text], _meta: null }],
  ['_meta a string', { content: [text], _meta: 's' }],
  [
    '_meta with a bad serverInfo (zod rewrites it)',
    { content: [text], _meta: { 'io.modelcontextprotocol/serverInfo': 5 } },
  ],
  ['serverInfo with a title', { content: [text], _meta: { [INFO]: { name: 'n', version: '1', title: 't' } } }],
  [
    'serverInfo with an extra key (zod strips it)',
    { content: [text], _meta: { [INFO]: { name: 'n', version: '1', x: 1 } } },
  ],
  ['serverInfo without a version (zod drops it)', { content: [text], _meta: { [INFO]: { name: 'n' } } }],
  ['serverInfo with a numeric version', { content: [text], _meta: { [INFO]: { name: 'n', version: 1 } } }],
  ['serverInfo null', { content: [text], _meta: { [INFO]: null } }],
  ['serverInfo an array', { content: [text], _meta: { [INFO]: ['n', '1'] } }],
  [
    'serverInfo with a __proto__ key',
    JSON.parse(`{"content":[],"_meta":{"${INFO}":{"name":"n","version":"1","__proto__":{}}}}`),
  ],
  ['a __proto__ key', JSON.parse('{"content":[],"__proto__":{"isError":true}}')],
  ['a __proto__ key in _meta', JSON.parse('{"content":[],"_meta":{"__proto__":{"x":1}}}')],
  ['a __proto__ key in a part', JSON.parse('{"content":[{"type":"text","text":"a","__proto__":{}}]}')],
  ['a null-prototype result', Object.assign(Object.create(null) as object, { content: [] })],
  ['an array', [text]],
  ['null', null],
  ['a string', 'done'],
  ['a number', 7],
];

describe('plainCallToolResult', () => {
  it.each(ACCEPTED)('%s: accepted, with exactly what zod returns', (label, value) => {
    expect(plainCallToolResult(value)).toBeDefined();
    expect(expectSame(value, label)).toBe(true);
  });

  it.each(LEFT_TO_ZOD)('%s: left to zod', (label, value) => {
    expect(plainCallToolResult(value)).toBeUndefined();
    expectSame(value, label);
  });

  it('copies as zod does: fresh parts and _meta, the values inside _meta and structuredContent shared', () => {
    const value = { _meta: { a: { b: 1 } }, content: [{ type: 'text', text: 'x' }], structuredContent: { s: 1 } };
    const fast = plainCallToolResult(value) as typeof value;
    const zod = CallToolResultSchema.parse(value) as typeof value;
    for (const out of [fast, zod]) {
      expect(out.content).not.toBe(value.content);
      expect(out.content[0]).not.toBe(value.content[0]);
      expect(out._meta).not.toBe(value._meta);
      expect(out._meta.a).toBe(value._meta.a);
      expect(out.structuredContent).toBe(value.structuredContent);
    }
  });

  it('agrees with zod on 20,000 generated shapes, and accepts some of them', () => {
    let seed = 14;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const scalars = ['text', 'image', '', 'x', 0, 1, 0.5, true, false, null, -1, 2 ** 60];
    const anyValue = (depth: number): unknown => {
      const r = rand();
      if (depth <= 0 || r < 0.5) return pick(scalars);
      if (r < 0.75) return Array.from({ length: Math.floor(rand() * 3) }, () => anyValue(depth - 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 3) }, () => [pick(KEYS), anyValue(depth - 1)]),
      );
    };
    const KEYS = ['type', 'text', 'data', 'mimeType', 'annotations', '_meta', 'extra', 'a'];
    const part = (): unknown => {
      const r = rand();
      if (r < 0.6) {
        const p: Record<string, unknown> = rand() < 0.5 ? { type: 'text', text: 'hi' } : { text: 'hi', type: 'text' };
        if (rand() < 0.2) p[pick(KEYS)] = anyValue(1);
        if (rand() < 0.1) p.type = pick(scalars);
        if (rand() < 0.1) p.text = pick(scalars);
        return p;
      }
      return anyValue(2);
    };
    const info = (): unknown => {
      const r = rand();
      if (r < 0.5) return rand() < 0.5 ? { name: 'n', version: '1' } : { version: '1', name: 'n' };
      if (r < 0.8) return { name: pick(scalars), version: pick(scalars), ...(rand() < 0.5 ? { [pick(KEYS)]: 1 } : {}) };
      return anyValue(2);
    };
    const TOP = ['content', 'isError', 'structuredContent', '_meta', 'resultType', 'extra', 'toolResult'];
    const result = (): unknown => {
      if (rand() < 0.05) return anyValue(2);
      const out: Record<string, unknown> = {};
      const keys = [...TOP].sort(() => rand() - 0.5).filter(() => rand() < 0.5);
      if (rand() < 0.7 && !keys.includes('content')) keys.splice(Math.floor(rand() * (keys.length + 1)), 0, 'content');
      for (const k of keys) {
        if (k === 'content')
          out.content = rand() < 0.9 ? Array.from({ length: Math.floor(rand() * 4) }, part) : anyValue(1);
        else if (k === 'isError') out.isError = rand() < 0.7 ? rand() < 0.5 : pick(scalars);
        else if (k === 'resultType')
          out.resultType = rand() < 0.7 ? 'complete' : pick(['task', 'input_required', 'x', 1]);
        else if (k === '_meta')
          out._meta =
            rand() < 0.7
              ? Object.fromEntries(
                  [['k', anyValue(2)], ...(rand() < 0.6 ? [[INFO, info()]] : [])].sort(() => rand() - 0.5),
                )
              : anyValue(1);
        else out[k] = anyValue(2);
      }
      return out;
    };
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const value = JSON.parse(JSON.stringify(result())) as unknown;
      if (expectSame(value, `shape ${i}: ${JSON.stringify(value).slice(0, 200)}`)) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(500);
  });
});
