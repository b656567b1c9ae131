import { describe, expect, it } from 'vitest';
import { settingsSchema } from './host-api/contract';
import { DEFAULT_SETTINGS } from './settings-defaults';

describe('settings defaults', () => {
  it('name every setting the contract has, each valid, with no timer on a question', () => {
    expect(Object.keys(DEFAULT_SETTINGS).sort()).toEqual(Object.keys(settingsSchema.shape).sort());
    expect(settingsSchema.safeParse(DEFAULT_SETTINGS).success).toBe(true);
    expect(DEFAULT_SETTINGS.questionTimeLimitMinutes).toBe(0);
  });
});
