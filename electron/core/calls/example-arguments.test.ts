import { describe, expect, it } from 'vitest';
import { exampleArguments, exampleValue } from './example-arguments';

describe('example arguments from an input schema', () => {
  it('gives numbers for required numeric fields (the tools_call scenario)', () => {
    expect(
      exampleArguments({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      }),
    ).toEqual({ a: 1, b: 1 });
  });

  it('prefers default, then example, then enum, then the smallest valid value', () => {
    const schema = {
      type: 'object',
      properties: {
        d: { type: 'string', default: 'dflt' },
        e: { type: 'string', examples: ['ex'] },
        n: { type: 'string', enum: ['first', 'second'] },
        s: { type: 'string', minLength: 3 },
        m: { type: 'email-less', format: 'email', type2: 1 },
        i: { type: 'integer', minimum: 5, maximum: 9 },
        x: { type: 'number', exclusiveMinimum: 0 },
        arr: { type: 'array', items: { type: 'string' }, minItems: 2 },
        obj: { type: 'object', properties: { inner: { type: 'boolean' } }, required: ['inner'] },
        optional: { type: 'string' },
      },
      required: ['e', 'n', 's', 'i', 'x', 'arr', 'obj'],
    };
    expect(exampleArguments(schema)).toEqual({
      d: 'dflt',
      e: 'ex',
      n: 'first',
      s: 'xxx',
      i: 5,
      x: 0.5,
      arr: ['x', 'x'],
      obj: { inner: false },
    });
  });

  it('handles formats, unions and nullable types', () => {
    expect(exampleValue({ type: 'string', format: 'email' })).toBe('user@example.com');
    expect(exampleValue({ type: 'string', format: 'date-time' })).toBe('2026-01-01T00:00:00Z');
    expect(exampleValue({ type: ['null', 'integer'] })).toBe(1);
    expect(exampleValue({ anyOf: [{ type: 'null' }, { type: 'boolean' }] })).toBe(false);
    expect(exampleValue({ const: 7 })).toBe(7);
  });

  it('returns {} for a missing or empty schema', () => {
    expect(exampleArguments(undefined)).toEqual({});
    expect(exampleArguments({ type: 'object' })).toEqual({});
  });
});
