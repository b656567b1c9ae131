// Connects the core's events to the history journal, and serves the
// history view: every question, answer, call end and fault becomes one
// hash-chained entry. The answer entry is on disk (fsync) before the core
// sends the answer, because the core awaits `answerRecorded`.
import { watch, type FSWatcher } from 'node:fs';
import type { HistoryFilter as ViewFilter, HostResults } from '../../../shared/host-api/contract';
import { drawnBy } from '../apps/app-questions';
import type { SignInEvent } from '../auth/server-auth';
import type { HostObserver, TaskChangedEvent } from '../events';
import { isTerminalStatus, type TaskStatus } from '../tasks/task-types';
import { HostError, type HostErrorCode } from '../host-error';
import { answerEntry, HistoryJournal, questionEntry, verifyJournal, type FaultKind } from '../history';
import { itemsFromEnd } from '../history/from-end';
import { HistoryPager } from '../history/pager';
import { newestEntries } from '../history/tail-reader';
import type { HistoryPort } from './host-service';
import { exportFilename } from './export-filename';
import { streamExport, type ExportFormat, type ExportSink } from './history-export';

/** Changes to the folder are gathered this long before the tail is read. */
const WATCH_DEBOUNCE_MS = 50;

const FAULTS: Partial<Record<HostErrorCode, FaultKind>> = {
  'invalid-schema': 'invalid-schema',
  'undeclared-request': 'undeclared-request',
  'round-limit': 'round-limit',
  'invalid-answer': 'invalid-answer',
  'unknown-result-type': 'unknown-result-type',
  protocol: 'protocol-error',
};

/** Exports kept in memory (Electron's download, which takes a string) stop at this many characters. */
export const MAX_EXPORT_STRING_CHARS = 64 * 1024 * 1024;

/** History backed by a journal folder, read from its end on every query (nothing is loaded at open). */
export class JournalHistory implements HistoryPort {
  /** Called after each append, ours or another process's (the service turns it into a `historyAppended` event). */
  onAppended: (seq: number) => void = () => undefined;
  private readonly pager: HistoryPager;
  /** Question entries written per call still running, so its call end can say how many it closes. */
  private readonly questionsPerCall = new Map<string, number>();
  /** The seq of each question still waiting for its answer, which the answer entry then names. */
  private readonly questionSeqs = new Map<string, number>();
  /** The newest seq this object has told about. */
  private lastSeq: number;
  private watcher: FSWatcher | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(readonly journal: HistoryJournal) {
    this.pager = new HistoryPager(journal.dir);
    this.lastSeq = journal.head.seq;
  }

  /**
   * Open (or create) the journal. With `watch` (the default), appends by other processes (a
   * `countersign call` while the app runs) are noticed and reported through onAppended.
   */
  static async open(dir: string, options: { redact?: boolean; watch?: boolean } = {}): Promise<JournalHistory> {
    const journal = await HistoryJournal.open(dir, { redact: options.redact ?? false });
    const history = new JournalHistory(journal);
    if (options.watch !== false) history.watch();
    return history;
  }

  private async append(input: Parameters<HistoryJournal['append']>[0]): Promise<void> {
    const appended = await this.journal.append(input);
    if (appended.entry.kind === 'question') {
      this.questionSeqs.set(appended.entry.questionId, appended.seq);
      const callId = appended.entry.callId;
      if (callId !== undefined) this.questionsPerCall.set(callId, (this.questionsPerCall.get(callId) ?? 0) + 1);
    }
    this.tell(appended.seq);
  }

  private tell(seq: number): void {
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    this.onAppended(seq);
  }

  /** Watch the folder; a change re-reads the last entry's seq (a few bytes) and reports anything new. */
  private watch(): void {
    try {
      this.watcher = watch(this.journal.dir, { persistent: false }, () => {
        this.watchTimer ??= setTimeout(() => {
          this.watchTimer = undefined;
          void this.checkForAppends();
        }, WATCH_DEBOUNCE_MS);
      });
      this.watcher.on('error', () => this.unwatch());
    } catch {
      // No watching on this file system: queries still read what is on disk, only the push is lost.
    }
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
    clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
  }

  /** Report entries other processes appended (also callable by tests and pollers). */
  async checkForAppends(): Promise<void> {
    if (this.closed) return;
    const [newest] = await newestEntries(this.journal.dir, 1).catch(() => []);
    if (newest) this.tell(newest.seq);
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
    appEvent: (e) => this.append(e),
    questionAsked: (e) =>
      this.append(
        questionEntry(e.question, {
          ...(e.call ? { callId: e.call.callId, protocolVersion: e.call.protocolVersion } : {}),
          ...(e.requestState ? { requestState: e.requestState } : {}),
        }),
      ),
    answerRecorded: (e) => {
      const questionSeq = this.questionSeqs.get(e.question.id);
      this.questionSeqs.delete(e.question.id);
      return this.append({
        ...answerEntry(e.question, e.answer, {
          decidedBy: e.decidedBy,
          ...(e.decidedByDetail ? { decidedByDetail: e.decidedByDetail } : {}),
          ...(e.call ? { callId: e.call.callId } : {}),
          ...(e.urlOpened !== undefined ? { urlOpened: e.urlOpened } : {}),
          ...(drawnBy(e.question) ? { drawnByApp: drawnBy(e.question) } : {}),
        }),
        ...(e.passkey ? { passkey: e.passkey } : {}),
        ...(questionSeq !== undefined ? { questionSeq } : {}),
      });
    },
    callEnded: (e) => {
      const questions = this.questionsPerCall.get(e.call.callId) ?? 0;
      this.questionsPerCall.delete(e.call.callId);
      return this.append({
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
        questions,
      });
    },
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
      ...(e.reportedBy ? { reportedBy: e.reportedBy } : {}),
    });
  }

  async query(filter: ViewFilter): Promise<HostResults['queryHistory']> {
    const { offset = 0, limit = 200, ...rest } = filter;
    // Our own appends are on disk once append() resolves; wait for those in flight.
    await this.journal.flushed();
    const page = await this.pager.page(rest, offset, limit);
    return { total: page.total, complete: page.complete, entries: page.items };
  }

  /** Stream the filtered history, newest first, to `sink` in constant memory. */
  async exportTo(filter: ViewFilter, format: ExportFormat, sink: ExportSink): Promise<number> {
    const { offset: _o, limit: _l, ...rest } = filter;
    await this.journal.flushed();
    return streamExport(itemsFromEnd(this.journal.dir, rest), format, sink);
  }

  /** The export as one string (for a front end that cannot stream it), refused past MAX_EXPORT_STRING_CHARS. */
  async export(filter: ViewFilter, format: ExportFormat): Promise<HostResults['exportHistory']> {
    const parts: string[] = [];
    let size = 0;
    await this.exportTo(filter, format, (chunk) => {
      size += chunk.length;
      if (size > MAX_EXPORT_STRING_CHARS)
        throw new HostError(
          'config',
          `the export is larger than ${MAX_EXPORT_STRING_CHARS / 1024 / 1024} MiB of text: narrow the filter, ` +
            'or stream it with `countersign history export`',
        );
      parts.push(chunk);
    });
    return { data: parts.join(''), filename: exportFilename(format) };
  }

  /** The chain checked from the first entry to the last, after what this process wrote is on disk. */
  async verify(): Promise<HostResults['verifyHistory']> {
    await this.journal.flushed();
    const report = await verifyJournal(this.journal.dir);
    const b = report.firstBreak;
    return {
      ok: report.ok,
      entries: report.entries,
      ...(b
        ? {
            firstBreak: {
              file: b.file,
              line: b.line,
              detail: b.detail,
              ...(b.seq === undefined ? {} : { seq: b.seq }),
            },
          }
        : {}),
    };
  }

  setRedact(redact: boolean): void {
    void this.journal.setRedact(redact);
  }

  close(): Promise<void> {
    this.closed = true;
    this.unwatch();
    this.pager.reset();
    return this.journal.close();
  }
}
