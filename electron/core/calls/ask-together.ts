// A round's questions put to the human all at once (the app's queue shows
// them one by one with a way back), answered together.
import { HostError } from '../host-error';

/**
 * Asks every key of a round at once and waits for all the answers. When one
 * question cannot be asked (or fails), the others are withdrawn at once: a
 * half-answered round helps no one, and nothing of it is sent.
 */
export async function askTogether<T>(
  keys: readonly string[],
  ask: (key: string, i: number, signal: AbortSignal) => Promise<{ answer: T }>,
  signal: AbortSignal,
): Promise<T[]> {
  const rest = new AbortController();
  const both = AbortSignal.any([signal, rest.signal]);
  let first: unknown;
  const settled = await Promise.allSettled(
    keys.map((key, i) =>
      ask(key, i, both).catch((error: unknown) => {
        if (first === undefined) first = error;
        rest.abort(new HostError('cancelled', 'another question of its round could not be asked', { callEnded: true }));
        throw error;
      }),
    ),
  );
  if (first !== undefined) throw first;
  return settled.map((s) => (s as PromiseFulfilledResult<{ answer: T }>).value.answer);
}
