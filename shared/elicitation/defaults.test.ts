import { describe, it, expect } from 'vitest';
import { defaultsOf } from './defaults';
import type { FlatSchema } from './types';

const schema: FlatSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    empty: { type: 'string', default: '' },
    age: { type: 'integer', default: 0 },
    agree: { type: 'boolean', default: false },
    colours: { type: 'array', items: { type: 'string', enum: ['r', 'g'] }, default: ['g'] },
    none: { type: 'array', items: { type: 'string', enum: ['r'] }, default: [] },
    plain: { type: 'string' },
  },
};

describe('defaultsOf', () => {
  it('collects every defaulted field, falsy defaults included, and nothing else', () => {
    expect(defaultsOf(schema)).toEqual({ name: 'Ada', empty: '', age: 0, agree: false, colours: ['g'], none: [] });
    expect(Object.keys(defaultsOf(schema))).toEqual(['name', 'empty', 'age', 'agree', 'colours', 'none']);
  });

  it('is empty for a confirm-only schema', () => {
    expect(defaultsOf({ type: 'object', properties: {} })).toEqual({});
  });

  it('copies arrays so editing the answer cannot edit the schema', () => {
    const d = defaultsOf(schema);
    (d.colours as string[]).push('r');
    expect(schema.properties.colours?.default).toEqual(['g']);
  });

  it('ignores values no answer may carry, should an unchecked schema hold them', () => {
    const odd = {
      type: 'object',
      properties: { a: { type: 'number', default: NaN }, b: { type: 'string', default: { x: 1 } } },
    };
    expect(defaultsOf(odd as unknown as FlatSchema)).toEqual({});
  });

  it('stores a field named like a prototype member as own data', () => {
    const s: FlatSchema = { type: 'object', properties: {} };
    Object.defineProperty(s.properties, 'constructor', { value: { type: 'string', default: 'x' }, enumerable: true });
    const d = defaultsOf(s);
    expect(Object.hasOwn(d, 'constructor')).toBe(true);
    expect(d.constructor).toBe('x');
  });
});
