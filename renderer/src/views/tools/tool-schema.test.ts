import { describe, expect, it } from 'vitest';
import { describeResult, prettyJson } from './call-result';
import { argsFromFormData, parseJsonArgs, planArgs, skeletonArgs } from './tool-schema';

describe('planArgs', () => {
  it('draws a flat schema as a form (the SDK’s $schema is dropped, choices normalised)', () => {
    const plan = planArgs({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        entryId: { type: 'number', minimum: 1 },
        kind: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Bravo'] },
        when: { type: 'string', format: 'date' },
        id: { type: 'string', format: 'uuid' },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
        on: { type: 'boolean', default: true },
      },
      required: ['entryId', 'missing'],
      additionalProperties: false,
    });
    expect(plan.kind).toBe('form');
    if (plan.kind !== 'form') return;
    expect(plan.schema).toEqual({
      type: 'object',
      properties: {
        entryId: { type: 'number', minimum: 1 },
        kind: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'Alpha' },
            { const: 'b', title: 'Bravo' },
          ],
        },
        when: { type: 'string', format: 'date' },
        id: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, uniqueItems: true },
        on: { type: 'boolean', default: true },
      },
      required: ['entryId'],
    });
    expect(plan.uiSchema).toMatchObject({ tags: { 'ui:widget': 'checkboxes' }, on: { 'ui:widget': 'checkbox' } });
  });

  it('has nothing to enter for an empty object', () => {
    expect(planArgs({ type: 'object', properties: {} })).toEqual({ kind: 'none' });
    expect(planArgs({ type: 'object' })).toEqual({ kind: 'none' });
  });

  it('falls back to JSON, saying why, for anything the form cannot draw', () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } },
        /"address" has type "object"/,
      ],
      [
        { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } } },
        /"ids" is a list of free values/,
      ],
      [{ type: 'object', properties: { v: { type: ['string', 'null'] } } }, /"v" has type/],
      [{ type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }, /"v" has no type/],
      [{ type: 'object', properties: { v: { type: 'string', anyOf: [{ type: 'string' }] } } }, /"v" combines schemas/],
      [{ type: 'object', properties: { v: { $ref: '#/$defs/x' } }, $defs: { x: {} } }, /uses "\$defs"/],
      [{ type: 'object', properties: { v: { type: 'number', enum: [1, 2] } } }, /"v" uses "enum"/],
      [{ type: 'object', additionalProperties: { type: 'string' } }, /free-form/],
      [{ type: 'array' }, /type "array"/],
      ['nope', /not an object/],
    ];
    for (const [schema, why] of cases) {
      const plan = planArgs(schema);
      expect(plan.kind, JSON.stringify(schema)).toBe('json');
      if (plan.kind === 'json') expect(plan.reason).toMatch(why);
    }
  });

  it('starts the JSON editor from defaults and placeholders of required fields', () => {
    expect(
      skeletonArgs({
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'integer' },
          c: { type: 'boolean', default: true },
          d: { type: 'object' },
        },
        required: ['a', 'b', 'd'],
      }),
    ).toEqual({ a: '', b: 0, c: true, d: {} });
  });

  it('reads the JSON editor', () => {
    expect(parseJsonArgs('{"a": 1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseJsonArgs('  ')).toEqual({ ok: true, args: {} });
    expect(parseJsonArgs('[1]')).toEqual({ ok: false, error: 'notObject' });
    expect(parseJsonArgs('{a:1}')).toMatchObject({ ok: false, error: 'syntax' });
  });

  it('keeps only set schema fields as arguments', () => {
    const plan = planArgs({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } });
    if (plan.kind !== 'form') throw new Error('form expected');
    expect(argsFromFormData(plan.schema, { a: '', b: 2, extra: 1 })).toEqual({ b: 2 });
  });
});

describe('describeResult', () => {
  it('shows text content as text and the rest as JSON, metadata folded away', () => {
    const r = describeResult({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'x'.repeat(3000), mimeType: 'image/png' },
      ],
      structuredContent: { n: 1 },
      _meta: { a: 1 },
    });
    expect(r.isError).toBe(false);
    expect(r.parts.map((p) => (p.kind === 'text' ? p.text : `${p.label}${p.extra ? ' (extra)' : ''}`))).toEqual([
      'hi',
      'image',
      'structuredContent',
      '_meta (extra)',
    ]);
    const image = r.parts[1]!;
    expect(image.kind === 'json' && image.json).toContain('… (3000 characters)');
  });

  it('marks isError, and shows anything else whole', () => {
    expect(describeResult({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({
      isError: true,
      parts: [{ kind: 'text', text: 'boom' }],
    });
    expect(describeResult('odd')).toEqual({
      isError: false,
      parts: [{ kind: 'json', label: 'result', json: '"odd"' }],
    });
    expect(prettyJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
});
