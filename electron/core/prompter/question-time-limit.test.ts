// The human's time is limited only when the user set a limit (Settings →
// Question time limit): then the question says so, is cancelled when it runs
// out, and the history says it timed out after N min.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import type { AnswerEvent } from '../events';
import type { Prompter, PrompterAnswer } from './prompter';
import { QuestionGate } from './question-gate';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A human who never answers; the question leaves only when its signal aborts. */
class Away implements Prompter {
  shown: Question[] = [];
  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    this.shown.push(question);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  }
}

const params = { message: 'Book?', requestedSchema: { type: 'object', properties: {} } };
const ctx = { call: null, server: 'fx', era: 'modern' as const, round: 1, key: 'k' };

describe('the question time limit', () => {
  it('is off by default: no timer runs while the human decides', async () => {
    const away = new Away();
    const gate = new QuestionGate(away, {});
    void gate.ask(params, ctx, new AbortController().signal).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(away.shown).toHaveLength(1);
    expect(away.shown[0]!.origin.timeLimitMinutes).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('when set, is named in the question, cancels it when it runs out, and is recorded', async () => {
    const away = new Away();
    const answers: AnswerEvent[] = [];
    const gate = new QuestionGate(
      away,
      { answerRecorded: (e) => void answers.push(e) },
      () => false,
      () => 5,
    );
    const asked = gate.ask(params, ctx, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(away.shown[0]!.origin.timeLimitMinutes).toBe(5);
    expect(answers).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await expect(asked).resolves.toMatchObject({ answer: { action: 'cancel' }, decided: { decidedBy: 'timeout' } });
    expect(answers[0]).toMatchObject({
      decidedBy: 'timeout',
      decidedByDetail: 'timed out after 5 min (Settings → Question time limit)',
    });
  });
});
