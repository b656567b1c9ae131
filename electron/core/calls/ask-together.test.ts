import { describe, expect, it } from 'vitest';
import { isHostError } from '../host-error';
import { askTogether } from './ask-together';

describe('askTogether', () => {
  it('asks every key at once and returns the answers in key order', async () => {
    const started: string[] = [];
    const release: Array<() => void> = [];
    const answers = askTogether(
      ['a', 'b', 'c'],
      (key) => {
        started.push(key);
        return new Promise<{ answer: string }>((resolve) => release.push(() => resolve({ answer: key.toUpperCase() })));
      },
      new AbortController().signal,
    );
    // All three are open before any is answered: the human can go back within the round.
    expect(started).toEqual(['a', 'b', 'c']);
    release[2]!();
    release[0]!();
    release[1]!();
    await expect(answers).resolves.toEqual(['A', 'B', 'C']);
  });

  it('when one question fails, the others are withdrawn at once and the first failure is what the call ends with', async () => {
    const withdrawn: unknown[] = [];
    const result = askTogether(
      ['a', 'b', 'c'],
      (key, _i, signal) => {
        if (key === 'b') return Promise.reject(new Error('b could not be shown'));
        return new Promise<{ answer: string }>((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            withdrawn.push(signal.reason);
            reject(signal.reason);
          }),
        );
      },
      new AbortController().signal,
    );
    await expect(result).rejects.toThrow('b could not be shown');
    expect(withdrawn).toHaveLength(2);
    expect(withdrawn.every((r) => isHostError(r, 'cancelled') && r.details?.callEnded === true)).toBe(true);
  });
});
