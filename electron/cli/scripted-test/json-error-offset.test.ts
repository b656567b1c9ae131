// The offset finder agrees with JSON.parse on what is valid, and with V8 on
// where it goes wrong wherever V8 names a position.
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './json-error-offset';

const VALID = ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]}', ' 0 ', '"s"', '[{"k": {}}]'];
const INVALID = [
  '{',
  '{"a" 1}',
  '{"a": 1,}',
  '[1, 2',
  '[1 2]',
  'tru',
  '{"a": tru}',
  '01',
  '"\\x"',
  '{a: 1}',
  '1 2',
  '-',
  '"abc',
];

describe('jsonErrorOffset', () => {
  it('is -1 exactly for what JSON.parse accepts', () => {
    for (const text of VALID) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonErrorOffset(text), text).toBe(-1);
    }
    for (const text of INVALID) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(jsonErrorOffset(text), text).toBeGreaterThanOrEqual(0);
    }
  });

  it('points where V8 points, when V8 names a position', () => {
    let compared = 0;
    for (const text of INVALID) {
      try {
        JSON.parse(text);
      } catch (e) {
        const at = /position (\d+)/.exec((e as Error).message);
        if (!at) continue;
        compared += 1;
        expect(jsonErrorOffset(text), text).toBe(Number(at[1]));
      }
    }
    // The comparison must have happened for most inputs to mean anything.
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it('finds the spot V8 leaves out: the bad literal', () => {
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
  });
});
