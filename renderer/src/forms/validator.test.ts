import { describe, expect, it } from 'vitest';
import { normaliseForForm } from '../../../shared/elicitation/for-form';
import { everyWidgetSchema } from '../testing/questions';
import { createFormValidator, cspForbidsEval } from './validator';

const schema = normaliseForForm(everyWidgetSchema) as never;

function metaDoc(content: string) {
  const doc = document.implementation.createHTMLDocument('x');
  const meta = doc.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', content);
  doc.head.append(meta);
  return doc;
}

describe('cspForbidsEval', () => {
  it('reads a meta CSP', () => {
    expect(cspForbidsEval(metaDoc("default-src 'none'; script-src 'self'"))).toBe(true);
    expect(cspForbidsEval(metaDoc("script-src 'self' 'unsafe-eval'"))).toBe(false);
    expect(cspForbidsEval(metaDoc("default-src 'self'"))).toBe(true);
    expect(cspForbidsEval(metaDoc("img-src 'self'"))).toBe(false);
    expect(cspForbidsEval(document.implementation.createHTMLDocument('y'))).toBe(false);
  });
});

describe('createFormValidator', () => {
  it('uses Ajv 2020 where evaluation is allowed (jsdom) and the interpreter on request', () => {
    expect(createFormValidator().engine()).toBe('ajv');
    expect(createFormValidator('interpreter').engine()).toBe('interpreter');
  });

  for (const engine of ['ajv', 'interpreter'] as const) {
    it(`${engine}: reports the same RJSF errors for a bad answer`, () => {
      const v = createFormValidator(engine);
      const bad = { name: 'A', email: 'x', seats: 9, colour: 'pink', tags: [] };
      const result = v.validateFormData(bad, schema);
      const byField = result.errors.map((e) => `${e.property} ${e.name}`).sort();
      expect(byField).toEqual(
        expect.arrayContaining([
          '.name minLength',
          '.email format',
          '.seats maximum',
          '.colour enum',
          '.tags minItems',
          'size required',
        ]),
      );
      expect(v.isValid(schema, { name: 'Ada', colour: 'red', size: 's' }, schema)).toBe(true);
      expect(v.isValid(schema, { name: 'Ada' }, schema)).toBe(false);
    });
  }

  it('the two engines agree on every error of a bad answer', () => {
    const bad = {
      name: 'x'.repeat(40),
      homepage: 'nope',
      birthday: '2026-02-30',
      meeting: 'x',
      score: -1,
      subscribe: true,
      size: 'q',
      legacy: 'z',
      teams: ['nobody'],
    };
    const list = (engine: 'ajv' | 'interpreter') =>
      createFormValidator(engine)
        .validateFormData(bad, schema)
        .errors.map((e) => `${e.property} ${e.name}`)
        .sort();
    expect(list('interpreter')).toEqual(list('ajv'));
  });
});
