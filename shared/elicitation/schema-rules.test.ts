import { describe, it, expect } from 'vitest';
import { checkFlatSchema, propertyPath } from './schema-rules';
import type { SchemaProblem } from './types';

const formatProblems = (problems: readonly SchemaProblem[]) =>
  problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n');
import type { FlatSchema } from './types';

// Helpers: a one-field schema, and the paths of a failed check.
const one = (prop: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { f: prop },
  ...extra,
});
function accepted(schema: unknown): FlatSchema {
  const r = checkFlatSchema(schema);
  if (!r.ok) throw new Error(`expected acceptance, got:\n${formatProblems(r.errors)}`);
  return r.schema;
}
function paths(schema: unknown): string[] {
  const r = checkFlatSchema(schema);
  if (r.ok) throw new Error('expected rejection');
  return r.errors.map((e) => e.path);
}
function messages(schema: unknown): string {
  const r = checkFlatSchema(schema);
  if (r.ok) throw new Error('expected rejection');
  return r.errors.map((e) => e.message).join('\n');
}

describe('checkFlatSchema: accepted constructs', () => {
  it('accepts a confirm-only schema with empty properties', () => {
    expect(accepted({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('reads a missing properties as confirm-only', () => {
    expect(accepted({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });

  it('accepts a plain string with every string keyword', () => {
    const prop = {
      type: 'string',
      title: 'Name',
      description: 'Your name',
      minLength: 1,
      maxLength: 50,
      default: 'Ada',
    };
    expect(accepted(one(prop)).properties.f).toEqual(prop);
  });

  it.each(['email', 'uri', 'date', 'date-time'])('accepts format %s', (format) => {
    expect(accepted(one({ type: 'string', format })).properties.f?.format).toBe(format);
  });

  it('accepts number and integer with bounds and defaults', () => {
    const s = accepted({
      type: 'object',
      properties: {
        n: { type: 'number', minimum: 0.5, maximum: 9.5, default: 1.25 },
        i: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
        eq: { type: 'integer', minimum: 5, maximum: 5, default: 5 },
      },
    });
    expect(s.properties.n).toEqual({ type: 'number', minimum: 0.5, maximum: 9.5, default: 1.25 });
    expect(s.properties.i).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 3 });
    expect(s.properties.eq?.default).toBe(5);
  });

  it('accepts a boolean with a default, including false', () => {
    expect(accepted(one({ type: 'boolean', title: 'Agree', default: false })).properties.f).toEqual({
      type: 'boolean',
      title: 'Agree',
      default: false,
    });
  });

  it('accepts an untitled single-select (enum)', () => {
    expect(accepted(one({ type: 'string', enum: ['a', 'b'], default: 'b' })).properties.f).toEqual({
      type: 'string',
      enum: ['a', 'b'],
      default: 'b',
    });
  });

  it('accepts the legacy enum + enumNames', () => {
    expect(accepted(one({ type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] })).properties.f?.enumNames).toEqual([
      'A',
      'B',
    ]);
  });

  it('accepts a titled single-select (oneOf const/title), tolerating type "string" in a choice', () => {
    const s = accepted(
      one({
        type: 'string',
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green', type: 'string' },
        ],
        default: 'g',
      }),
    );
    expect(s.properties.f?.oneOf).toEqual([
      { const: 'r', title: 'Red' },
      { const: 'g', title: 'Green' },
    ]);
    expect(s.properties.f?.default).toBe('g');
  });

  it('accepts an untitled multi-select (items.enum) with counts and default', () => {
    const prop = {
      type: 'array',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
      default: ['a', 'c'],
    };
    expect(accepted(one(prop)).properties.f).toEqual(prop);
  });

  it('accepts a titled multi-select (items.anyOf), with or without items.type', () => {
    const anyOf = [
      { const: 'a', title: 'A' },
      { const: 'b', title: 'B' },
    ];
    expect(accepted(one({ type: 'array', items: { anyOf }, default: ['b'] })).properties.f?.items).toEqual({ anyOf });
    expect(accepted(one({ type: 'array', items: { type: 'string', anyOf } })).properties.f?.items).toEqual({
      type: 'string',
      anyOf,
    });
  });

  it('tolerates uniqueItems on a multi-select and drops it', () => {
    expect(
      accepted(one({ type: 'array', items: { type: 'string', enum: ['a'] }, uniqueItems: true })).properties.f,
    ).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['a'] },
    });
  });

  it('keeps required and merges duplicates', () => {
    const s = accepted({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a', 'b', 'a'],
    });
    expect(s.required).toEqual(['a', 'b']);
  });

  it('drops an empty required list', () => {
    expect(accepted({ type: 'object', properties: {}, required: [] })).toEqual({ type: 'object', properties: {} });
  });

  it('tolerates root annotations real servers send, and drops them', () => {
    const s = accepted({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:x',
      $comment: 'generated',
      title: 'Booking',
      description: 'Details',
      additionalProperties: false,
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(s).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('tolerates property annotations (examples, $comment, x-*, deprecated) and drops them', () => {
    const s = accepted(
      one({ type: 'string', examples: ['x'], $comment: 'c', 'x-order': 1, deprecated: false, readOnly: false }),
    );
    expect(s.properties.f).toEqual({ type: 'string' });
  });

  it('returns a copy that does not share arrays with the input', () => {
    const input = one({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] });
    const s = accepted(input);
    (input.properties.f as { default: string[] }).default.push('b');
    expect(s.properties.f?.default).toEqual(['a']);
  });

  it('accepts property names that look like Object.prototype members as own data', () => {
    const s = accepted({
      type: 'object',
      properties: { constructor: { type: 'string' }, toString: { type: 'boolean' } },
    });
    expect(Object.keys(s.properties)).toEqual(['constructor', 'toString']);
    expect(s.properties.constructor).toEqual({ type: 'string' });
  });
});

describe('checkFlatSchema: rejected constructs', () => {
  it.each([null, 'x', 3, [], true])('rejects a non-object schema %j at the root path', (v) => {
    expect(paths(v)).toEqual(['']);
  });

  it('rejects a missing or wrong root type', () => {
    expect(paths({ properties: {} })).toEqual(['type']);
    expect(paths({ type: 'array', properties: {} })).toEqual(['type']);
  });

  it('rejects properties that is not an object', () => {
    expect(paths({ type: 'object', properties: [] })).toEqual(['properties']);
  });

  it('rejects root constraint keywords it cannot honour', () => {
    expect(paths({ type: 'object', properties: {}, allOf: [] })).toEqual(['allOf']);
    expect(paths({ type: 'object', properties: {}, minProperties: 1 })).toEqual(['minProperties']);
    expect(paths({ type: 'object', properties: {}, patternProperties: {} })).toEqual(['patternProperties']);
  });

  // Every keyword the root refuses, named one by one: the list is assembled
  // from groups it shares with the property rules, so a group edited for one
  // side must show here.
  const rootRefused =
    'allOf anyOf oneOf not if then else dependentRequired dependentSchemas patternProperties propertyNames ' +
    'minProperties maxProperties enum const items prefixItems';
  it.each(rootRefused.split(' '))('rejects the root keyword %s', (key) => {
    expect(paths({ type: 'object', properties: {}, [key]: {} })).toEqual([key]);
  });

  it.each(['pattern', 'minimum', 'minLength', 'format', 'contains', 'unevaluatedProperties'])(
    'tolerates %s at the root and drops it',
    (key) => {
      expect(accepted({ type: 'object', properties: {}, [key]: 1 })).toEqual({ type: 'object', properties: {} });
    },
  );

  it('rejects a nested object by its property path', () => {
    expect(
      paths({
        type: 'object',
        properties: { address: { type: 'object', properties: { street: { type: 'string' } } } },
      }),
    ).toEqual(['properties.address']);
    expect(paths(one({ properties: {} }))).toEqual(['properties.f']);
  });

  it('rejects arrays of non-strings', () => {
    expect(paths(one({ type: 'array', items: { type: 'number', enum: [1] } }))).toEqual(['properties.f.items.type']);
    expect(paths(one({ type: 'array', items: { type: 'object', properties: {} } }))).toEqual(['properties.f.items']);
  });

  it('rejects a multi-select without choices or with a tuple items', () => {
    expect(paths(one({ type: 'array' }))).toEqual(['properties.f.items']);
    expect(paths(one({ type: 'array', items: { type: 'string' } }))).toEqual(['properties.f.items']);
    expect(paths(one({ type: 'array', items: [{ type: 'string' }] }))).toEqual(['properties.f.items']);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'], anyOf: [{ const: 'a' }] } }))).toEqual([
      'properties.f.items',
    ]);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'], pattern: 'x' } }))).toEqual([
      'properties.f.items.pattern',
    ]);
  });

  it('rejects $ref anywhere, with its path', () => {
    expect(paths(one({ $ref: 'https://evil.example/schema.json' }))).toEqual([
      'properties.f.$ref',
      'properties.f.type',
    ]);
    expect(paths({ type: 'object', properties: {}, $defs: { x: { $ref: '#' } } })).toEqual(['$defs.x.$ref']);
    expect(paths(one({ type: 'array', items: { anyOf: [{ $ref: '#/x' }] } }))).toContain(
      'properties.f.items.anyOf[0].$ref',
    );
    expect(paths({ type: 'object', properties: {}, $dynamicRef: '#meta' })).toEqual(['$dynamicRef']);
    expect(messages(one({ $ref: '#' }))).toMatch(/never resolved or fetched/);
  });

  it('rejects unknown formats', () => {
    expect(paths(one({ type: 'string', format: 'hostname' }))).toEqual(['properties.f.format']);
    expect(messages(one({ type: 'string', format: 'ipv4' }))).toMatch(/email, uri, date, date-time/);
  });

  it('rejects a non-array required and names that are not properties', () => {
    expect(paths({ type: 'object', properties: { a: { type: 'string' } }, required: 'a' })).toEqual(['required']);
    expect(paths({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] })).toEqual([
      'required[1]',
    ]);
    expect(paths({ type: 'object', properties: {}, required: [1] })).toEqual(['required[0]']);
    expect(messages({ type: 'object', properties: {}, required: ['ghost'] })).toMatch(/"ghost"/);
  });

  it('rejects defaults of the wrong type', () => {
    expect(paths(one({ type: 'string', default: 3 }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'number', default: '3' }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'integer', default: 2.5 }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'boolean', default: 'true' }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'] }, default: 'a' }))).toEqual([
      'properties.f.default',
    ]);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'] }, default: [1] }))).toEqual([
      'properties.f.default',
    ]);
  });

  it('rejects defaults outside the choices, bounds or counts', () => {
    expect(paths(one({ type: 'string', enum: ['a', 'b'], default: 'c' }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'string', oneOf: [{ const: 'a', title: 'A' }], default: 'A' }))).toEqual([
      'properties.f.default',
    ]);
    expect(paths(one({ type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, default: ['a', 'z'] }))).toEqual([
      'properties.f.default',
    ]);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a', 'a'] }))).toEqual([
      'properties.f.default',
    ]);
    expect(
      paths(one({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] })),
    ).toEqual(['properties.f.default']);
    expect(
      paths(one({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2, default: ['a'] })),
    ).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'number', minimum: 1, default: 0 }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'number', maximum: 1, default: 2 }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'string', maxLength: 2, default: 'abc' }))).toEqual(['properties.f.default']);
    expect(paths(one({ type: 'string', minLength: 2, default: 'a' }))).toEqual(['properties.f.default']);
  });

  it('counts string length in code points, as JSON Schema does', () => {
    expect(accepted(one({ type: 'string', maxLength: 1, default: '😀' })).properties.f?.default).toBe('😀');
  });

  it('rejects min greater than max', () => {
    expect(paths(one({ type: 'string', minLength: 5, maxLength: 2 }))).toEqual(['properties.f.minLength']);
    expect(paths(one({ type: 'number', minimum: 5, maximum: 2 }))).toEqual(['properties.f.minimum']);
    expect(
      paths(one({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 3, maxItems: 2 })),
    ).toEqual(['properties.f.minItems']);
  });

  it('rejects minItems larger than the number of choices', () => {
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 2 }))).toEqual([
      'properties.f.minItems',
    ]);
  });

  it('rejects malformed bounds', () => {
    expect(paths(one({ type: 'string', minLength: -1 }))).toEqual(['properties.f.minLength']);
    expect(paths(one({ type: 'string', maxLength: 1.5 }))).toEqual(['properties.f.maxLength']);
    expect(paths(one({ type: 'number', minimum: '0' }))).toEqual(['properties.f.minimum']);
    expect(paths(one({ type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: 'x' }))).toEqual([
      'properties.f.maxItems',
    ]);
  });

  it('rejects constraint keywords outside the flat subset, naming the keyword', () => {
    expect(paths(one({ type: 'string', pattern: '^a' }))).toEqual(['properties.f.pattern']);
    expect(paths(one({ type: 'number', exclusiveMinimum: 0 }))).toEqual(['properties.f.exclusiveMinimum']);
    expect(paths(one({ type: 'number', multipleOf: 2 }))).toEqual(['properties.f.multipleOf']);
    expect(paths(one({ type: 'string', const: 'x' }))).toEqual(['properties.f.const']);
    expect(paths(one({ type: 'string', allOf: [] }))).toEqual(['properties.f.allOf']);
    expect(paths(one({ type: 'string', items: { type: 'string' } }))).toEqual(['properties.f.items']);
    expect(paths(one({ type: 'boolean', enum: [true] }))).toEqual(['properties.f.enum']);
    expect(paths(one({ type: 'number', minLength: 1 }))).toEqual(['properties.f.minLength']);
    expect(paths(one({ type: 'string', minimum: 1 }))).toEqual(['properties.f.minimum']);
  });

  it('rejects missing, unknown, null and list types', () => {
    expect(paths(one({ title: 'x' }))).toEqual(['properties.f.type']);
    expect(paths(one({ type: 'null' }))).toEqual(['properties.f.type']);
    expect(paths(one({ type: ['string', 'null'] }))).toEqual(['properties.f.type']);
    expect(paths(one('string'))).toEqual(['properties.f']);
  });

  it('rejects broken choice lists', () => {
    expect(paths(one({ type: 'string', enum: [] }))).toEqual(['properties.f.enum']);
    expect(paths(one({ type: 'string', enum: ['a', 1] }))).toEqual(['properties.f.enum[1]']);
    expect(paths(one({ type: 'string', enum: ['a', 'a'] }))).toEqual(['properties.f.enum']);
    expect(paths(one({ type: 'string', enum: ['a'], oneOf: [{ const: 'a' }] }))).toEqual(['properties.f']);
    expect(paths(one({ type: 'string', enumNames: ['A'] }))).toEqual(['properties.f.enumNames']);
    expect(paths(one({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }))).toEqual(['properties.f.enumNames']);
    expect(paths(one({ type: 'string', oneOf: [{ title: 'A' }] }))).toEqual(['properties.f.oneOf[0]']);
    expect(paths(one({ type: 'string', oneOf: [{ const: 1, title: 'A' }] }))).toEqual(['properties.f.oneOf[0]']);
    expect(paths(one({ type: 'string', oneOf: [{ const: 'a', title: 2 }] }))).toEqual(['properties.f.oneOf[0].title']);
    expect(paths(one({ type: 'string', oneOf: [{ const: 'a' }, { const: 'a' }] }))).toEqual(['properties.f.oneOf']);
    expect(paths(one({ type: 'string', oneOf: [{ const: 'a', pattern: 'x' }] }))).toEqual([
      'properties.f.oneOf[0].pattern',
    ]);
    expect(paths(one({ type: 'string', oneOf: [] }))).toEqual(['properties.f.oneOf']);
  });

  it('rejects non-string title or description on a field', () => {
    expect(paths(one({ type: 'string', title: 5, description: {} }))).toEqual([
      'properties.f.title',
      'properties.f.description',
    ]);
  });

  it('rejects an empty and a __proto__ field name', () => {
    expect(paths({ type: 'object', properties: { '': { type: 'string' } } })).toEqual(['properties[""]']);
    expect(paths(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toEqual([
      'properties.__proto__',
    ]);
  });

  it('reports every problem at once, across fields', () => {
    const r = checkFlatSchema({
      type: 'object',
      properties: { a: { type: 'object' }, b: { type: 'string', format: 'x' }, c: { type: 'string' } },
      required: ['a', 'zz'],
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.path)).toEqual(['properties.a', 'properties.b.format', 'required[1]']);
  });

  it('survives cyclic and absurdly deep input', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    cyclic.self = cyclic;
    expect(checkFlatSchema(cyclic).ok).toBe(true);
    let deep: Record<string, unknown> = {};
    const root = { type: 'object', properties: {}, $defs: deep };
    for (let i = 0; i < 200; i++) deep = deep.x = {};
    expect(messages(root)).toMatch(/nested too deeply/);
  });
});

describe('paths and formatting', () => {
  it('brackets property names that are not identifiers', () => {
    expect(propertyPath('address')).toBe('properties.address');
    expect(propertyPath('first name')).toBe('properties["first name"]');
    expect(paths({ type: 'object', properties: { 'a.b': { type: 'object' } } })).toEqual(['properties["a.b"]']);
  });
});
