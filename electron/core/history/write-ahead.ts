// The write-ahead rule in one place: an answer reaches the server only after its
// history entry is on disk.

import type { HistoryJournal } from './journal';
import type { AnswerInput, AppendedEntry } from './types';

/**
 * Record `answer`, then (and only then) call `send`. If recording fails, `send` is
 * never called and the HistoryWriteError propagates: the core must then not answer
 * (it may cancel the call instead, which it records as a fault or call end when it can).
 */
export async function writeAhead<T>(
  journal: Pick<HistoryJournal, 'append'>,
  answer: AnswerInput,
  send: (recorded: AppendedEntry) => T | Promise<T>,
): Promise<T> {
  const recorded = await journal.append(answer);
  return send(recorded);
}
