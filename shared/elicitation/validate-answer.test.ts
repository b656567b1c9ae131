import { describe, it, expect } from 'vitest';
import { validateAnswer } from './validate-answer';
import type { FieldProblem, FlatSchema } from './types';

const schema: FlatSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', title: 'Age', minimum: 18, maximum: 99 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    agree: { type: 'boolean' },
    size: { type: 'string', enum: ['s', 'm'] },
    colour: {
      type: 'string',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
    tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    tagsT: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'A' },
          { const: 'b', title: 'B' },
        ],
      },
    },
  },
  required: ['name', 'agree'],
};

function errorsOf(content: unknown, s: FlatSchema = schema): FieldProblem[] {
  const r = validateAnswer(s, content);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}
const only = (content: unknown) => {
  const errs = errorsOf(content);
  expect(errs).toHaveLength(1);
  return errs[0]!;
};
const base = { name: 'Ada', agree: true };

describe('validateAnswer: valid answers', () => {
  it('accepts a full, valid answer', () => {
    expect(
      validateAnswer(schema, {
        name: 'Ada',
        email: 'ada@example.com',
        site: 'https://example.com/x',
        day: '2025-01-31',
        at: '2025-01-31T14:30:00Z',
        age: 18,
        ratio: 0.5,
        agree: false,
        size: 'm',
        colour: 'g',
        legacy: 'y',
        tags: ['a', 'c'],
        tagsT: ['b'],
      }),
    ).toEqual({ ok: true });
  });

  it('accepts only the required fields', () => {
    expect(validateAnswer(schema, base)).toEqual({ ok: true });
  });

  it('accepts empty content for a confirm-only schema, and rejects any key in it', () => {
    const confirm: FlatSchema = { type: 'object', properties: {} };
    expect(validateAnswer(confirm, {})).toEqual({ ok: true });
    expect(errorsOf({ x: 1 }, confirm)).toEqual([{ field: 'x', message: '"x" is not a field of this form.' }]);
  });

  it('accepts an integer-valued number for an integer field (JSON has one number type)', () => {
    expect(validateAnswer(schema, { ...base, age: 20.0 })).toEqual({ ok: true });
  });
});

describe('validateAnswer: problems name the field', () => {
  it.each([null, 'x', [], 3])('rejects non-object content %j as a whole', (c) => {
    expect(errorsOf(c)).toEqual([{ field: '', message: expect.stringMatching(/must be an object/) }]);
  });

  it('reports missing required fields by title or name', () => {
    expect(errorsOf({})).toEqual([
      { field: 'name', message: '"Full name" is required.' },
      { field: 'agree', message: '"agree" is required.' },
    ]);
  });

  it('rejects keys that are not properties', () => {
    expect(only({ ...base, extra: 'x' })).toEqual({ field: 'extra', message: '"extra" is not a field of this form.' });
  });

  it('rejects a __proto__ key from parsed JSON as an unknown field', () => {
    expect(only(JSON.parse('{"name":"Ada","agree":true,"__proto__":{"x":1}}')).field).toBe('__proto__');
  });

  it.each([
    ['an object', { a: 1 }],
    ['null', null],
    ['a mixed list', ['a', 1]],
    ['a list of lists', [['a']]],
  ])('rejects %s as a value answers cannot carry', (_label, value) => {
    const e = only({ ...base, size: value });
    expect(e.field).toBe('size');
    expect(e.message).toMatch(/cannot carry/);
  });

  it('rejects NaN and Infinity', () => {
    expect(only({ ...base, ratio: Infinity })).toEqual({ field: 'ratio', message: '"ratio" must be a finite number.' });
    expect(only({ ...base, ratio: NaN }).field).toBe('ratio');
  });

  it('explains wrong types in words', () => {
    expect(only({ ...base, email: 5 }).message).toBe('"email" must be text.');
    expect(only({ ...base, ratio: '0.5' }).message).toBe('"ratio" must be a number.');
    expect(only({ ...base, agree: 'yes' }).message).toBe('"agree" must be true or false.');
    expect(only({ ...base, tags: 'a' }).message).toBe('"Tags" must be a list of choices.');
  });

  it('explains whole numbers and bounds', () => {
    expect(errorsOf({ ...base, age: 18.5 })).toEqual([{ field: 'age', message: '"Age" must be a whole number.' }]);
    expect(only({ ...base, age: 17 }).message).toBe('"Age" must be at least 18.');
    expect(only({ ...base, age: 100 }).message).toBe('"Age" must be at most 99.');
    expect(only({ ...base, ratio: -0.1 }).message).toBe('"ratio" must be at least 0.');
  });

  it('explains lengths, counting code points', () => {
    expect(only({ ...base, name: 'A' }).message).toBe('"Full name" must be at least 2 characters long.');
    expect(only({ ...base, name: 'Adalbert' }).message).toBe('"Full name" must be at most 5 characters long.');
    expect(validateAnswer(schema, { ...base, name: '😀😀' })).toEqual({ ok: true });
  });

  it.each([
    ['email', 'not-an-email', /email address/],
    ['site', 'example.com', /full URI/],
    ['day', '31.01.2025', /YYYY-MM-DD/],
    ['day', '2025-02-30', /YYYY-MM-DD/],
    ['at', '2025-01-31T14:30', /time zone/],
  ])('explains a bad %s format (%s)', (field, value, pattern) => {
    const e = only({ ...base, [field]: value });
    expect(e.field).toBe(field);
    expect(e.message).toMatch(pattern);
  });

  it('lists the choices of a single-select, whatever its spelling', () => {
    expect(only({ ...base, size: 'xl' })).toEqual({ field: 'size', message: '"size" must be one of: "s", "m".' });
    expect(only({ ...base, colour: 'Red' })).toEqual({
      field: 'colour',
      message: '"colour" must be one of: "r", "g".',
    });
    expect(only({ ...base, legacy: 'Ex' }).message).toBe('"legacy" must be one of: "x", "y".');
  });

  it('names a choice that is not offered in a multi-select', () => {
    expect(only({ ...base, tags: ['a', 'z'] })).toEqual({
      field: 'tags',
      message: '"Tags" contains "z", which is not one of the choices.',
    });
    expect(only({ ...base, tagsT: ['A'] }).message).toBe('"tagsT" contains "A", which is not one of the choices.');
  });

  it('explains counts and duplicates in a multi-select', () => {
    expect(only({ ...base, tags: [] }).message).toBe('"Tags" needs at least 1 choice.');
    expect(errorsOf({ ...base, tags: ['a', 'b', 'c'] })).toEqual([
      { field: 'tags', message: '"Tags" allows at most 2 choices.' },
    ]);
    expect(only({ ...base, tagsT: ['a', 'a'] }).message).toBe('"tagsT" lists the same choice more than once.');
  });

  it('reports every field at once', () => {
    const fields = errorsOf({ name: 'A', age: 1, extra: true, size: 'q' }).map((e) => e.field);
    expect(new Set(fields)).toEqual(new Set(['extra', 'name', 'age', 'size', 'agree']));
  });

  it('reports each field once when our own check already caught it', () => {
    expect(errorsOf({ ...base, age: { n: 1 } }).filter((e) => e.field === 'age')).toHaveLength(1);
  });
});

describe('validateAnswer: caching', () => {
  it('gives the same result for equal schemas given as different objects', () => {
    const a = validateAnswer(structuredClone(schema), { ...base, age: 5 });
    const b = validateAnswer(structuredClone(schema), { ...base, age: 5 });
    expect(a).toEqual(b);
    expect(a.ok).toBe(false);
  });

  it('keeps working when many distinct schemas pass through (bounded cache)', () => {
    for (let i = 0; i < 100; i++) {
      const s: FlatSchema = { type: 'object', properties: { n: { type: 'integer', maximum: i } }, required: ['n'] };
      expect(validateAnswer(s, { n: i }).ok).toBe(true);
      expect(validateAnswer(s, { n: i + 1 }).ok).toBe(false);
    }
  });
});
