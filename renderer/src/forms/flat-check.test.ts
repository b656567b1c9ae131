import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { normaliseForForm } from '../../../shared/elicitation/for-form';
import { everyWidgetSchema } from '../testing/questions';
import { checkValue } from './flat-check';

// The interpreter must agree with Ajv (configured as RJSF configures it) on every flat-schema construct.
const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, multipleOfPrecision: 8 });
addFormats(ajv);

const formSchema = normaliseForForm(everyWidgetSchema) as unknown as Record<string, unknown>;

const cases: Array<[string, unknown, unknown]> = [
  ['string ok', { type: 'string', minLength: 2, maxLength: 4 }, 'abc'],
  ['string short', { type: 'string', minLength: 2 }, 'a'],
  ['string long', { type: 'string', maxLength: 2 }, 'abc'],
  ['code points, not UTF-16 units', { type: 'string', maxLength: 2 }, '😀😀'],
  ['wrong type', { type: 'string' }, 3],
  ['email ok', { type: 'string', format: 'email' }, 'a@b.example'],
  ['email bad', { type: 'string', format: 'email' }, 'a@'],
  ['uri ok', { type: 'string', format: 'uri' }, 'https://example.com/x?y#z'],
  ['uri relative', { type: 'string', format: 'uri' }, '/relative'],
  ['date ok', { type: 'string', format: 'date' }, '2026-02-28'],
  ['date impossible', { type: 'string', format: 'date' }, '2026-02-30'],
  ['date-time ok', { type: 'string', format: 'date-time' }, '2026-07-28T09:30:00.000Z'],
  ['date-time without zone', { type: 'string', format: 'date-time' }, '2026-07-28T09:30:00'],
  ['number in range', { type: 'number', minimum: 0, maximum: 1 }, 0.5],
  ['number low', { type: 'number', minimum: 0 }, -1],
  ['number high', { type: 'number', maximum: 1 }, 2],
  ['integer ok', { type: 'integer' }, 3],
  ['integer fraction', { type: 'integer' }, 3.5],
  ['number as text', { type: 'number' }, '3'],
  ['boolean', { type: 'boolean' }, false],
  ['boolean as text', { type: 'boolean' }, 'false'],
  ['enum ok', { type: 'string', enum: ['a', 'b'] }, 'a'],
  ['enum bad', { type: 'string', enum: ['a', 'b'] }, 'c'],
  ['oneOf const ok', { type: 'string', oneOf: [{ const: 'a', title: 'A' }, { const: 'b' }] }, 'b'],
  ['oneOf const bad', { type: 'string', oneOf: [{ const: 'a' }, { const: 'b' }] }, 'z'],
  [
    'multi ok',
    { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 2 },
    ['x'],
  ],
  ['multi empty', { type: 'array', items: { type: 'string', enum: ['x'] }, minItems: 1 }, []],
  ['multi too many', { type: 'array', items: { type: 'string' }, maxItems: 1 }, ['x', 'y']],
  ['multi duplicate', { type: 'array', uniqueItems: true, items: { type: 'string' } }, ['x', 'x']],
  ['multi bad item', { type: 'array', items: { type: 'string', oneOf: [{ const: 'x' }] } }, ['q']],
  ['anyOf items', { type: 'array', items: { anyOf: [{ const: 'x' }, { const: 'y' }] } }, ['y', 'z']],
  ['form ok', formSchema, { name: 'Ada', colour: 'red', size: 'm', tags: ['ui'] }],
  ['form missing required', formSchema, { name: 'A' }],
  [
    'form everything wrong',
    formSchema,
    {
      name: 'x'.repeat(30),
      email: 'no',
      homepage: 'no',
      birthday: '2020-13-01',
      meeting: 'soon',
      score: 11,
      seats: 1.5,
      subscribe: 'yes',
      colour: 'pink',
      size: 'xl',
      legacy: 'c',
      tags: ['ui', 'core', 'docs'],
      teams: ['dev'],
    },
  ],
  ['additionalProperties false', { type: 'object', properties: {}, additionalProperties: false }, { x: 1 }],
];

const summary = (errors: Array<{ instancePath: string; keyword: string }>) =>
  [...new Set(errors.map((e) => `${e.instancePath} ${e.keyword}`))].sort();

describe('checkValue agrees with Ajv 2020-12', () => {
  for (const [name, schema, value] of cases) {
    it(name, () => {
      const validate = ajv.compile(schema as object);
      const ok = validate(value);
      const mine = checkValue(schema, value);
      expect(mine.length === 0).toBe(ok);
      expect(summary(mine)).toEqual(summary(validate.errors ?? []));
      // Same params for the keywords the UI reads (limits, formats, missing property).
      const read = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum', 'format', 'required'];
      const params = (errors: Array<{ instancePath: string; keyword: string; params: unknown }>) =>
        errors
          .filter((e) => read.includes(e.keyword))
          .map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`)
          .sort();
      expect(params(mine)).toEqual(params(validate.errors ?? []));
    });
  }
});

describe('checkValue safety', () => {
  it('refuses constructs it cannot interpret instead of passing them', () => {
    expect(checkValue({ $ref: '#/x' }, 1).map((e) => e.keyword)).toEqual(['$ref']);
    expect(checkValue({ type: 'object', minProperties: 1 }, {}).length).toBeGreaterThan(0);
  });

  it('treats undefined object members as absent (like JSON)', () => {
    expect(checkValue({ type: 'object', required: ['a'] }, { a: undefined }).map((e) => e.keyword)).toEqual([
      'required',
    ]);
    expect(checkValue({ type: 'object', properties: { a: { type: 'string' } } }, { a: undefined })).toEqual([]);
  });
});
