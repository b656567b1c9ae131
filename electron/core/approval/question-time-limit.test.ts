import { describe, expect, it } from 'vitest';
import { settingsSchema } from '../../../shared/host-api/contract';
import { MAX_QUESTION_TIME_LIMIT_MINUTES } from '../../../shared/question-time-limit';
import { questionContextSchema } from './protocol';

describe('question time limit', () => {
  it('the settings contract and the approval wire both stop at the one bound defined here', () => {
    const setting = settingsSchema.shape.questionTimeLimitMinutes;
    const wire = questionContextSchema.shape.timeLimitMinutes;
    for (const limit of [setting, wire]) {
      expect(limit.safeParse(MAX_QUESTION_TIME_LIMIT_MINUTES).success).toBe(true);
      expect(limit.safeParse(MAX_QUESTION_TIME_LIMIT_MINUTES + 1).success).toBe(false);
    }
    // 0 is "no limit" in the settings; the wire only carries a limit that is set.
    expect(setting.safeParse(0).success).toBe(true);
    expect(wire.safeParse(0).success).toBe(false);
  });
});
