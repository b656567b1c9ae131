// Connects the core's events to the history journal, and serves the
// history view: every question, answer, call end and fault becomes one
// hash-chained entry. The answer entry is on disk (fsync) before the core
// sends the answer, because the core awaits `answerRecorded`.
import type { HistoryEntryView, HistoryFilter as ViewFilter, HostResults } from '../../../shared/host-api/contract';
import type { SignInEvent } from '../auth/server-auth';
import type { HostObserver, TaskChangedEvent } from '../events';
import { isTerminalStatus, type TaskStatus } from '../tasks/task-types';
import type { HostErrorCode } from '../host-error';
import {
  answerEntry,
  buildItems,
  filterItems,
  HistoryJournal,
  questionEntry,
  type FaultKind,
  type HistoryItem,
  type JournalEntry,
} from '../history';
import type { HistoryPort } from './host-service';
import { toCsv, toJsonLines } from './history-export';

const FAULTS: Partial<Record<HostErrorCode, FaultKind>> = {
  'invalid-schema': 'invalid-schema',
  'undeclared-request': 'undeclared-request',
  'round-limit': 'round-limit',
  'invalid-answer': 'invalid-answer',
  'unknown-result-type': 'unknown-result-type',
  protocol: 'protocol-error',
};

/** History backed by a journal folder. */
export class JournalHistory implements HistoryPort {
  private entries: JournalEntry[] = [];
  private items: HistoryItem[] | undefined;
  /** Called after each append (the service turns it into a `historyAppended` event). */
  onAppended: (seq: number) => void = () => undefined;

  private constructor(readonly journal: HistoryJournal) {}

  /** Open (or create) the journal and load it for the view. */
  static async open(dir: string, options: { redact?: boolean } = {}): Promise<JournalHistory> {
    const journal = await HistoryJournal.open(dir, { redact: options.redact ?? false });
    const history = new JournalHistory(journal);
    history.entries = (await journal.readAll()).entries;
    return history;
  }

  private async append(input: Parameters<HistoryJournal['append']>[0]): Promise<void> {
    const appended = await this.journal.append(input);
    this.entries.push(appended.entry);
    this.items = undefined;
    this.onAppended(appended.seq);
  }

  /** The status last recorded per task this process saw, so only changes of status are written. */
  private readonly taskStatus = new Map<string, TaskStatus>();

  private recordTask(e: TaskChangedEvent): Promise<void> | undefined {
    const t = e.task;
    const last = this.taskStatus.get(t.taskId);
    const ended = t.endedAt !== undefined;
    if (last === t.status && !ended) return undefined;
    // A terminal status is written once, with the end that follows it at once (not twice).
    if (isTerminalStatus(t.status) && !ended) return undefined;
    if (ended) this.taskStatus.delete(t.taskId);
    else this.taskStatus.set(t.taskId, t.status);
    // An end that repeats the last status still gets its entry: it says the host stopped following (and why).
    return this.append({
      kind: 'task',
      taskId: t.taskId,
      server: t.server,
      tool: t.tool,
      status: t.status,
      ...(last !== undefined && last !== t.status ? { previous: last } : {}),
      ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
      ...(t.callId ? { callId: t.callId } : {}),
      ...(t.agent ? { agent: t.agent } : {}),
      ...(ended ? { ended: true as const } : {}),
      ...(ended && t.note ? { note: t.note } : {}),
    });
  }

  readonly observer: HostObserver = {
    taskChanged: (e) => this.recordTask(e),
    questionAsked: (e) =>
      this.append(
        questionEntry(e.question, {
          ...(e.call ? { callId: e.call.callId, protocolVersion: e.call.protocolVersion } : {}),
          ...(e.requestState ? { requestState: e.requestState } : {}),
        }),
      ),
    answerRecorded: (e) =>
      this.append(
        answerEntry(e.question, e.answer, {
          decidedBy: e.decidedBy,
          ...(e.decidedByDetail ? { decidedByDetail: e.decidedByDetail } : {}),
          ...(e.call ? { callId: e.call.callId } : {}),
          ...(e.urlOpened !== undefined ? { urlOpened: e.urlOpened } : {}),
        }),
      ),
    callEnded: (e) =>
      this.append({
        kind: 'call-end',
        callId: e.call.callId,
        server: e.call.server,
        method: e.call.method,
        name: e.call.name,
        outcome: e.outcome,
        ...(e.isError !== undefined ? { isError: e.isError } : {}),
        rounds: e.rounds,
        ...(e.error ? { detail: e.error } : {}),
        ...(e.call.agent ? { agent: e.call.agent } : {}),
        ...(e.call.reportedBy ? { reportedBy: e.call.reportedBy } : {}),
      }),
    fault: async (e) => {
      // The approval channel's own faults (a replaced socket, a question nobody could see) carry an approval-* reason.
      const reason = e.details?.reason;
      const fault = typeof reason === 'string' && reason.startsWith('approval-') ? 'approval-channel' : FAULTS[e.code];
      if (!fault) return;
      await this.append({
        kind: 'fault',
        fault,
        ...(e.call ? { server: e.call.server, callId: e.call.callId } : {}),
        detail: e.message,
        ...(e.call?.reportedBy ? { reportedBy: e.call.reportedBy } : {}),
      });
    },
  };

  /** A sign-in step: server, issuer, scopes, the call; never a token or code (a SignInEvent carries none). */
  recordSignIn(e: SignInEvent): Promise<void> {
    return this.append({
      kind: 'sign-in',
      server: e.server,
      phase: e.phase,
      ...(e.issuer ? { issuer: e.issuer } : {}),
      scopes: [...e.scopes],
      ...(e.call ? { call: { ...e.call } } : {}),
      ...(e.questionId ? { questionId: e.questionId } : {}),
      ...(e.error ? { detail: e.error } : {}),
    });
  }

  private filtered(filter: ViewFilter): HistoryItem[] {
    this.items ??= buildItems(this.entries);
    const { offset: _o, limit: _l, ...rest } = filter;
    return filterItems(this.items, rest);
  }

  async query(filter: ViewFilter): Promise<HostResults['queryHistory']> {
    const all = this.filtered(filter);
    const offset = filter.offset ?? 0;
    const limit = filter.limit ?? 200;
    // Newest first: the view opens on what just happened.
    const page: HistoryEntryView[] = [];
    for (let i = all.length - 1 - offset; i >= 0 && page.length < limit; i--)
      // eslint-disable-next-line no-restricted-syntax -- goes with wire types once (issue 14 §2-3)
      page.push(all[i] as unknown as HistoryEntryView);
    return { total: all.length, entries: page };
  }

  async export(filter: ViewFilter, format: 'jsonl' | 'csv'): Promise<HostResults['exportHistory']> {
    const items = this.filtered(filter);
    const stamp = new Date().toISOString().slice(0, 10);
    return {
      data: format === 'csv' ? toCsv(items) : toJsonLines(items),
      filename: `countersign-history-${stamp}.${format}`,
    };
  }

  setRedact(redact: boolean): void {
    void this.journal.setRedact(redact);
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
