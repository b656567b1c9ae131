// The CLI records its questions and answers in the same history journal as
// the app, always: there is no switch to run without a trace (an agent that
// drives the CLI could use it to act unrecorded). The journal takes several
// writers at once, so a call while the app runs records into the same chain.
import type { SignInEvent } from '../core/auth/server-auth';
import type { HostObserver } from '../core/events';
import { HostError } from '../core/host-error';
import { JournalHistory } from '../core/service/journal-history';
import type { CliIo } from './io';
import { historyDir } from './paths';

/** The journal as a CLI run records into it: questions and answers, and sign-in steps. */
export interface CliHistory {
  observer?: HostObserver;
  /** A sign-in step (login, a call's own sign-in, logout), the same entry the app writes. */
  recordSignIn?(event: SignInEvent): Promise<void>;
  close(): Promise<void>;
}

/** Open the journal for a CLI run; the caller closes it. */
export async function openCliHistory(io: CliIo): Promise<CliHistory> {
  const dir = historyDir(io.env);
  try {
    const history = await JournalHistory.open(dir);
    return { observer: history.observer, recordSignIn: (e) => history.recordSignIn(e), close: () => history.close() };
  } catch (error) {
    throw new HostError('config', `cannot open the history journal in ${dir}: ${(error as Error).message}`);
  }
}
