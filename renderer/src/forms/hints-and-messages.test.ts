import { describe, expect, it } from 'vitest';
import { normaliseForForm } from '../../../shared/elicitation/for-form';
import { createTranslate } from '../i18n/translate';
import { everyWidgetSchema } from '../testing/questions';
import { errorMessage, fieldOf, localiseErrors } from './error-messages';
import { fieldHint } from './field-hints';
import { buildUiSchema, widgetFor } from './ui-schema';

const en = createTranslate('en');
const de = createTranslate('de');

describe('fieldHint', () => {
  it('counts characters against maxLength', () => {
    expect(fieldHint({ type: 'string', maxLength: 10 }, 'abc', en)).toBe('3 of at most 10 characters');
    expect(fieldHint({ type: 'string', minLength: 2, maxLength: 10 }, undefined, en)).toBe(
      'At least 2 characters · 0 of at most 10 characters',
    );
    expect(fieldHint({ type: 'string', minLength: 2 }, '', en)).toBe('At least 2 characters');
    expect(fieldHint({ type: 'string' }, 'x', en)).toBe('');
    expect(fieldHint({ type: 'string', minLength: 1 }, '', en)).toBe('At least 1 character');
    expect(fieldHint({ type: 'string', maxLength: 1 }, 'x', en)).toBe('1 of at most 1 character');
  });

  it('states number ranges and whole numbers', () => {
    expect(fieldHint({ type: 'integer', minimum: 1, maximum: 5 }, 2, en)).toBe('Whole number · From 1 to 5');
    expect(fieldHint({ type: 'number', minimum: 0 }, 2, en)).toBe('At least 0');
    expect(fieldHint({ type: 'number', maximum: 9 }, 2, de)).toBe('Höchstens 9');
  });

  it('does not state the edges of safe integers as bounds', () => {
    const unbounded = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    expect(fieldHint(unbounded, 2, en)).toBe('Whole number · At least 1');
    expect(
      fieldHint({ type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, 2, en),
    ).toBe('Whole number');
  });

  it('states how many choices a multi-select takes', () => {
    expect(fieldHint({ type: 'array', minItems: 1, maxItems: 2 }, [], en)).toBe('Choose 1 to 2');
    expect(fieldHint({ type: 'array', maxItems: 2 }, [], en)).toBe('Choose up to 2');
    expect(fieldHint({ type: 'array', minItems: 1 }, [], en)).toBe('Choose at least 1');
  });

  it('shows the UTC value a date-time sends', () => {
    expect(fieldHint({ type: 'string', format: 'date-time' }, '2026-07-28T07:30:00.000Z', en)).toBe(
      'Your local time. Sent as 2026-07-28T07:30:00.000Z.',
    );
  });
});

describe('error messages', () => {
  it('have one sentence per keyword, in both languages', () => {
    expect(errorMessage({ name: 'required', params: {} }, en)).toBe('This field is required.');
    expect(errorMessage({ name: 'minLength', params: { limit: 3 } }, en)).toBe('Enter at least 3 characters.');
    expect(errorMessage({ name: 'minLength', params: { limit: 1 } }, en)).toBe('Enter at least 1 character.');
    expect(errorMessage({ name: 'maxLength', params: { limit: 1 } }, en)).toBe('Enter at most 1 character.');
    expect(errorMessage({ name: 'maximum', params: { limit: 9 } }, de)).toBe('Geben Sie eine Zahl bis 9 ein.');
    expect(errorMessage({ name: 'type', params: { type: 'integer' } }, en)).toBe('Enter a whole number.');
    expect(errorMessage({ name: 'format', params: { format: 'email' } }, en)).toMatch(/email address/);
    expect(errorMessage({ name: 'format', params: { format: 'date-time' } }, de)).toMatch(/Uhrzeit/);
    expect(errorMessage({ name: 'oneOf', params: {} }, en)).toBe('Choose one of the options.');
    expect(errorMessage({ name: 'uniqueItems', params: {} }, en)).toBe('Choose each option only once.');
    expect(errorMessage({ name: 'whatever', params: {} }, en)).toBe('This value is not valid.');
  });

  it('attach item errors to their field and drop repeats', () => {
    expect(fieldOf('.tags.1')).toBe('tags');
    const out = localiseErrors(
      [
        { name: 'const', property: '.size', params: {}, stack: '' },
        { name: 'const', property: '.size', params: {}, stack: '' },
        { name: 'oneOf', property: '.size', params: {}, stack: '' },
        { name: 'enum', property: '.tags.0', params: {}, stack: '' },
      ],
      en,
    );
    expect(out.map((e) => `${e.property} ${e.message}`)).toEqual([
      '.size Choose one of the options.',
      '.tags Choose one of the options.',
    ]);
  });
});

describe('widget choice', () => {
  const schema = normaliseForForm(everyWidgetSchema);

  it('draws multi-selects as checkboxes, required short choices as radios, others as selects', () => {
    expect(widgetFor('tags', schema)).toBe('checkboxes');
    expect(widgetFor('teams', schema)).toBe('checkboxes');
    expect(widgetFor('colour', schema)).toBe('radio');
    expect(widgetFor('size', schema)).toBe('radio');
    expect(widgetFor('legacy', schema)).toBe('select');
    expect(widgetFor('subscribe', schema)).toBe('checkbox');
    expect(widgetFor('email', schema)).toBeUndefined();
    expect(widgetFor('missing', schema)).toBeUndefined();
  });

  it('uses a select for long required lists', () => {
    const many = normaliseForForm({
      type: 'object',
      properties: { c: { type: 'string', enum: ['1', '2', '3', '4', '5', '6'] } },
      required: ['c'],
    });
    expect(widgetFor('c', many)).toBe('select');
  });

  it('hides RJSF’s own submit button and survives odd field names', () => {
    const ui = buildUiSchema(
      normaliseForForm({ type: 'object', properties: { __proto__: { type: 'boolean' } } as never }),
    );
    expect(ui['ui:submitButtonOptions']).toEqual({ norender: true });
    expect(Object.getPrototypeOf(ui)).toBe(Object.prototype);
  });
});
