// The host's tasks: which are running (and being followed), which ended, and
// the durable record of both. A call that became a task is handed here; so
// are legacy questions tied to a task, status notifications, cancel requests
// from any front end, and, at start, the tasks a previous run left running.
import { randomUUID } from 'node:crypto';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import type { CallContext, HostObserver } from '../events';
import type { ServerConnection } from '../connection/server-connection';
import { HostError, isHostError, messageOf } from '../host-error';
import type { ElicitParams, QuestionAsker } from '../prompter/question-gate';
import { driveTask, type TaskDrive } from './task-driver';
import { listenForTask } from './task-listen';
import { taskOps } from './task-ops';
import type { PollBounds } from './poll-schedule';
import { MemoryTaskStore, type TaskRecord, type TaskStore } from './task-store';
import { expiresAt, isTerminalStatus, parseTask, type TaskSnapshot, type TaskStatus } from './task-types';

export interface TaskManagerOptions {
  gate: QuestionAsker;
  observer: HostObserver;
  store?: TaskStore;
  connect(server: string): Promise<ServerConnection>;
  /** Tasks followed at once per server (default 8). */
  maxPerServer?: number;
  /** Give up on a task still running after this long (default 24 h). */
  maxTaskMs?: number;
  pollBounds?: PollBounds;
}

interface Live {
  record: TaskRecord;
  drive: TaskDrive;
  controller: AbortController;
  call: CallContext;
  /** Settles once the task's end is stored and reported (history, views). */
  recorded: Promise<void>;
}

/** A status change, for history and views. */
export interface TaskChange {
  record: TaskRecord;
  previous?: TaskStatus;
}

export class TaskManager {
  private readonly store: TaskStore;
  private records: TaskRecord[] | undefined;
  private readonly live = new Map<string, Live>();
  private saving: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(change: TaskChange) => void>();

  constructor(private readonly options: TaskManagerOptions) {
    this.store = options.store ?? new MemoryTaskStore();
  }

  /** Be told about every status change (views). */
  onChange(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async all(): Promise<TaskRecord[]> {
    this.records ??= await this.store.load();
    return this.records;
  }

  private persist(): Promise<void> {
    // Writes in order, one at a time; a failing write is reported, not fatal to the task.
    this.saving = this.saving.then(
      async () => this.store.save(await this.all()),
      async () => this.store.save(await this.all()),
    );
    return this.saving;
  }

  /** Every remembered task, newest first. */
  async list(): Promise<TaskRecord[]> {
    return [...(await this.all())].sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1)).map((r) => ({ ...r }));
  }

  /** A task by id (or unique id prefix). */
  async find(idOrPrefix: string): Promise<TaskRecord | undefined> {
    const all = await this.all();
    const exact = all.find((r) => r.taskId === idOrPrefix);
    if (exact) return exact;
    const matches = all.filter((r) => r.taskId.startsWith(idOrPrefix));
    if (matches.length > 1)
      throw new HostError('config', `task id prefix "${idOrPrefix}" matches ${matches.length} tasks; give more of it`);
    return matches[0];
  }

  /** Whether this host follows the task now. */
  isFollowing(taskId: string): boolean {
    return this.live.has(taskId);
  }

  /** Running tasks this host follows on `server`. */
  runningOn(server: string): number {
    return [...this.live.values()].filter((l) => l.record.server === server).length;
  }

  /** Refuse a new task when the server already has its share. */
  checkLimit(server: string): void {
    const max = this.options.maxPerServer ?? 8;
    if (this.runningOn(server) >= max)
      throw new HostError(
        'task-limit',
        `server "${server}" already has ${max} running tasks followed by this host; wait for one to end or cancel one`,
        { max },
      );
  }

  private async changed(record: TaskRecord, previous: TaskStatus | undefined, call: CallContext | null) {
    await this.persist();
    await this.options.observer.taskChanged?.({
      call,
      task: { ...record },
      ...(previous ? { previous } : {}),
      at: new Date().toISOString(),
    });
    for (const l of this.listeners) l({ record: { ...record }, ...(previous ? { previous } : {}) });
  }

  /** Remember a task without following it (--detach). */
  async remember(conn: ServerConnection, call: CallContext, snapshot: TaskSnapshot): Promise<TaskRecord> {
    const record = this.newRecord(conn, call, snapshot);
    (await this.all()).push(record);
    await this.changed(record, undefined, call);
    return record;
  }

  private newRecord(conn: ServerConnection, call: CallContext, snap: TaskSnapshot): TaskRecord {
    return {
      taskId: snap.taskId,
      server: conn.name,
      era: conn.era,
      tool: call.name,
      ...(call.arguments ? { arguments: call.arguments } : {}),
      callId: call.callId,
      ...(call.agent ? { agent: call.agent } : {}),
      startedAt: new Date().toISOString(),
      createdAt: snap.createdAt,
      ttlMs: snap.ttlMs,
      status: snap.status,
      ...(snap.statusMessage !== undefined ? { statusMessage: snap.statusMessage } : {}),
      lastUpdatedAt: snap.lastUpdatedAt,
    };
  }

  /** Follow a task to its end; resolves with the tool result. Aborting `signal` cancels it (not a host shutdown). */
  async follow(
    conn: ServerConnection,
    call: CallContext,
    snapshot: TaskSnapshot,
    signal: AbortSignal,
    existing?: TaskRecord,
  ): Promise<Record<string, unknown>> {
    const all = await this.all();
    let record = existing;
    if (!record) {
      record = this.newRecord(conn, call, snapshot);
      all.push(record);
      await this.changed(record, undefined, call);
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const rec = record;
    // Modern servers may push the task's status; then the host polls only as a backstop.
    const listen = conn.era === 'modern' ? listenForTask(conn, rec.taskId) : undefined;
    const drive = driveTask(taskOps(conn.client, conn.era, conn.name), snapshot, call, this.options.gate, {
      signal: controller.signal,
      maxTaskMs: this.options.maxTaskMs ?? 24 * 3_600_000,
      startedAt: rec.startedAt,
      ...(this.options.pollBounds ? { bounds: this.options.pollBounds } : {}),
      onSnapshot: async (snap, changed) => {
        if (!changed && snap.status === rec.status) return;
        const previous = rec.status;
        rec.status = snap.status;
        rec.lastUpdatedAt = snap.lastUpdatedAt;
        rec.ttlMs = snap.ttlMs;
        if (snap.statusMessage !== undefined) rec.statusMessage = snap.statusMessage;
        await this.changed(rec, previous !== snap.status ? previous : undefined, call);
      },
      note: async (message) => {
        await this.options.gate.fault(call, new HostError('protocol', message, { taskId: rec.taskId, note: true }));
      },
      pushed: () => conn.taskWire.isPushed(rec.taskId),
    });
    let recorded!: () => void;
    this.live.set(rec.taskId, { record: rec, drive, controller, call, recorded: new Promise((r) => (recorded = r)) });
    let keepOpen = false;
    try {
      const result = await drive.done;
      rec.result = result;
      rec.status = 'completed';
      return result;
    } catch (error) {
      if (isHostError(error, 'connection')) {
        // The host or the server went away: the task may well go on. Keep
        // the record open so the next start picks it up.
        keepOpen = true;
        throw error;
      }
      rec.note = messageOf(error);
      if (isHostError(error, 'cancelled') && typeof error.details?.serverStatus === 'string') {
        const s = error.details.serverStatus;
        if (s === 'working' || s === 'input_required' || s === 'completed' || s === 'failed' || s === 'cancelled')
          rec.status = s;
      }
      if (isHostError(error, 'task-failed')) rec.status = 'failed';
      throw error;
    } finally {
      listen?.close();
      signal.removeEventListener('abort', onAbort);
      this.live.delete(rec.taskId);
      if (!keepOpen && rec.endedAt === undefined) rec.endedAt = new Date().toISOString();
      await this.changed(rec, undefined, call).catch(() => undefined);
      recorded();
    }
  }

  /** A legacy elicitation/create tied to a followed task, or undefined when it names none. */
  legacyQuestion(
    server: string,
    params: Record<string, unknown>,
    serverSignal: AbortSignal,
  ): Promise<Record<string, unknown>> | undefined {
    const related = (params._meta as Record<string, unknown> | undefined)?.[RELATED_TASK_META_KEY] as
      { taskId?: unknown } | undefined;
    if (typeof related?.taskId !== 'string') return undefined;
    const live = this.live.get(related.taskId);
    if (!live || live.record.server !== server) return undefined;
    // The task tag routed the question here and goes no further; the rest of _meta stays, since a form's app
    // hint lives there (SEP-3118, `_meta.ui.resourceUri`) and the gate reads it as on every other path.
    const { [RELATED_TASK_META_KEY]: _task, ...meta } = params._meta as Record<string, unknown>;
    return live.drive.askLegacy({ ...params, _meta: meta }, serverSignal);
  }

  /** A status notification (legacy notifications/tasks/status, modern notifications/tasks). */
  statusNotification(server: string, params: Record<string, unknown>): void {
    let snap: TaskSnapshot;
    try {
      snap = parseTask(params, `server "${server}" sent a task status notification`);
    } catch {
      return; // a malformed push changes nothing: the next poll tells the truth
    }
    const live = this.live.get(snap.taskId);
    if (live && live.record.server === server) live.drive.notify(snap);
  }

  /**
   * Cancel a task by id (live or remembered). Resolves with the state the server reports.
   * `by` says who asked; `by.questionId`: the human did it from that question's dialog,
   * so that question is recorded as their decision (and the task's other questions as cancelled).
   */
  async cancel(idOrPrefix: string, by?: { reason: string; questionId?: string }): Promise<TaskRecord> {
    const record = await this.find(idOrPrefix);
    if (!record) throw new HostError('config', `no task "${idOrPrefix}" is known to this host`);
    const live = this.live.get(record.taskId);
    if (live) {
      live.controller.abort(
        new HostError('cancelled', by?.reason ?? 'the task was cancelled', {
          taskId: record.taskId,
          taskCancelled: true,
          ...(by?.questionId ? { questionId: by.questionId } : {}),
        }),
      );
      await live.drive.done.catch(() => undefined);
      // What the caller gets back is what history and the views were told.
      await live.recorded;
      return { ...record };
    }
    if (record.endedAt && isTerminalStatus(record.status)) return { ...record };
    const conn = await this.options.connect(record.server);
    const ops = taskOps(conn.client, conn.era, conn.name);
    await ops.cancel(record.taskId);
    const snap = await ops.get(record.taskId, new AbortController().signal).catch(() => undefined);
    const previous = record.status;
    if (snap) {
      record.status = snap.status;
      if (snap.statusMessage !== undefined) record.statusMessage = snap.statusMessage;
    }
    record.note = `cancel sent; the server reports ${record.status}`;
    record.endedAt = new Date().toISOString();
    await this.changed(record, previous !== record.status ? previous : undefined, null);
    return { ...record };
  }

  /** One tasks/get for a remembered task (does not follow it). */
  async look(idOrPrefix: string): Promise<{ record: TaskRecord; snapshot?: TaskSnapshot; error?: string }> {
    const record = await this.find(idOrPrefix);
    if (!record) throw new HostError('config', `no task "${idOrPrefix}" is known to this host`);
    try {
      const conn = await this.options.connect(record.server);
      const snapshot = await taskOps(conn.client, conn.era, conn.name).get(record.taskId, new AbortController().signal);
      return { record: { ...record }, snapshot };
    } catch (error) {
      return { record: { ...record }, error: messageOf(error) };
    }
  }

  /**
   * Pick up the tasks a previous run left running: a task whose ttl passed is
   * closed with a note; the others are followed again (a waiting question is
   * asked again). Resolves with one promise per resumed task.
   */
  async resume(signal?: AbortSignal): Promise<Array<{ record: TaskRecord; done: Promise<Record<string, unknown>> }>> {
    const open = (await this.all()).filter((r) => r.endedAt === undefined && !this.live.has(r.taskId));
    const resumed: Array<{ record: TaskRecord; done: Promise<Record<string, unknown>> }> = [];
    for (const record of open) {
      const expiry = expiresAt(record);
      if (expiry !== undefined && Date.now() > expiry) {
        record.note = `its ttl of ${record.ttlMs} ms passed while the host was not running; closed without a result`;
        record.endedAt = new Date().toISOString();
        await this.changed(record, undefined, null);
        continue;
      }
      const call: CallContext = {
        callId: record.callId || randomUUID(),
        server: record.server,
        era: record.era,
        protocolVersion: 'unknown',
        method: 'tools/call',
        name: record.tool,
        ...(record.arguments ? { arguments: record.arguments } : {}),
        ...(record.agent ? { agent: record.agent } : {}),
      };
      const done = (async () => {
        const conn = await this.options.connect(record.server);
        let snap: TaskSnapshot;
        try {
          snap = await taskOps(conn.client, conn.era, conn.name).get(
            record.taskId,
            signal ?? new AbortController().signal,
          );
        } catch (error) {
          if (isHostError(error, 'connection')) throw error;
          // The server no longer knows it (expired, purged, restarted).
          record.note = `the server no longer knows this task: ${messageOf(error)}`;
          record.endedAt = new Date().toISOString();
          await this.changed(record, undefined, null);
          throw new HostError(
            'task-expired',
            `task ${record.taskId.slice(0, 8)}… on "${record.server}": ${record.note}`,
          );
        }
        return this.follow(
          conn,
          { ...call, protocolVersion: conn.protocolVersion },
          snap,
          signal ?? new AbortController().signal,
          record,
        );
      })();
      resumed.push({ record: { ...record }, done });
    }
    return resumed;
  }

  /** Stop following everything (host shutdown): tasks go on on their servers and are resumed next time. */
  detachAll(): void {
    for (const live of this.live.values())
      live.controller.abort(new HostError('connection', 'the host is shutting down'));
  }
}
