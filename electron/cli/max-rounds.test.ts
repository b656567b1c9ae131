// --max-rounds takes the round limit's one set of bounds (shared/round-limit.ts),
// the same as the app's Settings and the host contract: before, the CLI had its
// own 1..1000 and accepted a limit the app refuses.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ROUNDS, MAX_MAX_ROUNDS, MIN_MAX_ROUNDS } from '../../shared/round-limit';
import { positiveInt } from './call-command';

describe('--max-rounds bounds', () => {
  it('accepts the bounds themselves and falls back to the default', () => {
    expect(positiveInt('--max-rounds', String(MIN_MAX_ROUNDS), 7)).toBe(MIN_MAX_ROUNDS);
    expect(positiveInt('--max-rounds', String(MAX_MAX_ROUNDS), 7)).toBe(MAX_MAX_ROUNDS);
    expect(positiveInt('--max-rounds', undefined, DEFAULT_MAX_ROUNDS)).toBe(DEFAULT_MAX_ROUNDS);
  });

  it('refuses one past either bound, naming the flag and the bounds', () => {
    for (const value of [String(MIN_MAX_ROUNDS - 1), String(MAX_MAX_ROUNDS + 1), '2.5', 'ten'])
      expect(() => positiveInt('--max-rounds', value, DEFAULT_MAX_ROUNDS)).toThrow(
        `--max-rounds must be a whole number from ${MIN_MAX_ROUNDS} to ${MAX_MAX_ROUNDS}, not ${JSON.stringify(value)}`,
      );
  });
});
