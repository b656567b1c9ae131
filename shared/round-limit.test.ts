import { describe, expect, it } from 'vitest';
import { settingsSchema } from './host-api/contract';
import { DEFAULT_MAX_ROUNDS, MAX_MAX_ROUNDS, MIN_MAX_ROUNDS } from './round-limit';

const maxRounds = settingsSchema.shape.maxRounds;

describe('round limit', () => {
  it('the contract accepts exactly the bounds defined here, and the default lies within them', () => {
    expect(maxRounds.safeParse(MIN_MAX_ROUNDS).success).toBe(true);
    expect(maxRounds.safeParse(MAX_MAX_ROUNDS).success).toBe(true);
    expect(maxRounds.safeParse(MIN_MAX_ROUNDS - 1).success).toBe(false);
    expect(maxRounds.safeParse(MAX_MAX_ROUNDS + 1).success).toBe(false);
    expect(maxRounds.safeParse(DEFAULT_MAX_ROUNDS).success).toBe(true);
  });
});
