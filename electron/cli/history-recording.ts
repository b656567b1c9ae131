// The CLI records its questions and answers in the same history journal as
// the app, unless told not to (--no-history).
import type { HostObserver } from '../core/events';
import { HostError } from '../core/host-error';
import { JournalLockedError } from '../core/history';
import { JournalHistory } from '../core/service/journal-history';
import type { CliIo } from './io';
import { historyDir } from './paths';

/** Open the journal for a CLI run; the caller closes it. */
export async function openCliHistory(
  io: CliIo,
  enabled: boolean,
): Promise<{ observer?: HostObserver; close(): Promise<void> }> {
  if (!enabled) return { close: async () => undefined };
  const dir = historyDir(io.env);
  try {
    const history = await JournalHistory.open(dir);
    return { observer: history.observer, close: () => history.close() };
  } catch (error) {
    if (error instanceof JournalLockedError) {
      throw new HostError(
        'config',
        `the history journal in ${dir} is in use by another Countersign process; wait for it, or pass --no-history to run without recording`,
      );
    }
    throw new HostError('config', `cannot open the history journal in ${dir}: ${(error as Error).message}`);
  }
}
