import { describe, it, expect } from 'vitest';
import { normaliseForForm } from './for-form';
import type { FlatSchema } from './types';

const schema: FlatSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, format: 'email', default: 'a@b.c' },
    n: { type: 'integer', minimum: 1, maximum: 3, default: 2 },
    ok: { type: 'boolean', default: true },
    size: { type: 'string', enum: ['s', 'm'] },
    legacy: { type: 'string', enum: ['x', 'y', 'z'], enumNames: ['Ex', '', 'Zed'], default: 'y' },
    colour: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2, default: ['a'] },
    picks: {
      type: 'array',
      title: 'Picks',
      items: {
        anyOf: [
          { const: 'p', title: 'P' },
          { const: 'q', title: 'Q' },
        ],
      },
    },
  },
  required: ['name'],
};

describe('normaliseForForm', () => {
  const form = normaliseForForm(schema);

  it('leaves plain fields as they are', () => {
    expect(form.properties.name).toEqual(schema.properties.name);
    expect(form.properties.n).toEqual(schema.properties.n);
    expect(form.properties.ok).toEqual(schema.properties.ok);
    expect(form.properties.size).toEqual({ type: 'string', enum: ['s', 'm'] });
    expect(form.required).toEqual(['name']);
  });

  it('turns legacy enumNames into oneOf const/title, falling back to the value for a blank name', () => {
    expect(form.properties.legacy).toEqual({
      type: 'string',
      default: 'y',
      oneOf: [
        { const: 'x', title: 'Ex' },
        { const: 'y', title: 'y' },
        { const: 'z', title: 'Zed' },
      ],
    });
    expect(form.properties.legacy).not.toHaveProperty('enum');
    expect(form.properties.legacy).not.toHaveProperty('enumNames');
  });

  it('gives every oneOf choice a title', () => {
    expect(form.properties.colour?.oneOf).toEqual([
      { const: 'r', title: 'Red' },
      { const: 'g', title: 'g' },
    ]);
  });

  it('marks every multi-select uniqueItems so RJSF draws checkboxes', () => {
    expect(form.properties.tags).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['a', 'b'] },
      minItems: 1,
      maxItems: 2,
      default: ['a'],
      uniqueItems: true,
    });
    expect(form.properties.picks?.uniqueItems).toBe(true);
    expect(form.properties.n).not.toHaveProperty('uniqueItems');
  });

  it('turns items.anyOf into a typed items.oneOf of consts', () => {
    expect(form.properties.picks?.items).toEqual({
      type: 'string',
      oneOf: [
        { const: 'p', title: 'P' },
        { const: 'q', title: 'Q' },
      ],
    });
    expect(form.properties.picks?.title).toBe('Picks');
  });

  it('does not mutate or share its input', () => {
    const input = structuredClone(schema);
    const snapshot = structuredClone(input);
    const out = normaliseForForm(input);
    expect(input).toEqual(snapshot);
    (out.properties.tags?.default as string[]).push('b');
    out.properties.tags!.items!.enum!.push('zz');
    out.required!.push('n');
    expect(input).toEqual(snapshot);
  });

  it('keeps a confirm-only schema confirm-only', () => {
    expect(normaliseForForm({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
  });
});
