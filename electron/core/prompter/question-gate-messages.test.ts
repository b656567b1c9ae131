// The gate's refusals read as one sentence: each problem's own full stop is
// dropped before the problems are joined (no "…fetched.; …").
import { describe, expect, it } from 'vitest';
import { buildQuestion, problemList } from './question-gate';

describe('question gate refusal text', () => {
  it('joins problems without a stray full stop before a semicolon', () => {
    expect(problemList(['a: is wrong.', 'b: too long'])).toBe('a: is wrong; b: too long.');
  });

  it('a schema with two problems names both in one sentence', () => {
    const ctx = { call: null, server: 's', era: 'modern', round: 1, key: 'k' } as const;
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/x' }, b: { type: 'object', properties: {} } },
    };
    let message = '';
    try {
      buildQuestion({ mode: 'form', message: 'hi', requestedSchema: schema }, ctx);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/never resolved or fetched; /);
    expect(message).not.toMatch(/\.;/);
    expect(message).toMatch(/\.$/);
  });
});
