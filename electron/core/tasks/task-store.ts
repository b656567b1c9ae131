// Durable task records: which tasks this host started, on which server, for
// which tool, and where they stood. Kept in the data folder (tasks/tasks.json,
// a private 0600 file in a 0700 folder) so a restarted app or CLI picks its
// running tasks up again. Task ids may be bearer tokens for the server's state
// (the spec allows it), hence private. Finished records are kept, capped, so a
// Tasks view can show results after a restart.
import { dirname, join } from 'node:path';
import { withAppendLock } from '../history/lock';
import { ensurePrivateDir, readCheckedFile, writePrivateFile } from '../storage/private-files';
import type { TaskRecord } from '../task-record';

export type { TaskRecord };

/** Where records live. */
export interface TaskStore {
  load(): Promise<TaskRecord[]>;
  save(records: TaskRecord[]): Promise<void>;
}

/** Finished records kept (oldest dropped first). */
export const MAX_FINISHED_RECORDS = 200;

/** Drop the oldest finished records beyond the cap; running ones always stay. */
export function pruneRecords(records: TaskRecord[], max = MAX_FINISHED_RECORDS): TaskRecord[] {
  const finished = records.filter((r) => r.endedAt !== undefined);
  if (finished.length <= max) return records;
  const drop = new Set(
    finished
      .sort((a, b) => (a.endedAt! < b.endedAt! ? -1 : 1))
      .slice(0, finished.length - max)
      .map((r) => r.taskId),
  );
  return records.filter((r) => !drop.has(r.taskId));
}

/** `ours` over what is on disk: every task of either, the later-updated record of a task in both. */
export function mergeRecords(onDisk: TaskRecord[], ours: TaskRecord[]): TaskRecord[] {
  const byId = new Map(onDisk.map((r) => [r.taskId, r]));
  for (const r of ours) {
    const theirs = byId.get(r.taskId);
    if (!theirs || theirs.lastUpdatedAt <= r.lastUpdatedAt || (r.endedAt && !theirs.endedAt)) byId.set(r.taskId, r);
  }
  return [...byId.values()];
}

/** Records in memory only (tests, --no-history runs). */
export class MemoryTaskStore implements TaskStore {
  private records: TaskRecord[] = [];
  async load(): Promise<TaskRecord[]> {
    return this.records.map((r) => ({ ...r }));
  }
  async save(records: TaskRecord[]): Promise<void> {
    this.records = records.map((r) => ({ ...r }));
  }
}

/** Records in `<dataDir>/tasks/tasks.json`. */
export class FileTaskStore implements TaskStore {
  readonly file: string;
  constructor(dataDir: string) {
    this.file = join(dataDir, 'tasks', 'tasks.json');
  }

  async load(): Promise<TaskRecord[]> {
    const text = await readCheckedFile(this.file);
    if (text === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(`${this.file}: not valid JSON (${(e as Error).message}); move it aside to start afresh`);
    }
    const list = (parsed as { tasks?: unknown }).tasks;
    if (!Array.isArray(list)) throw new Error(`${this.file}: expected { "tasks": [...] }`);
    return list.filter(
      (r): r is TaskRecord =>
        typeof r === 'object' && r !== null && typeof r.taskId === 'string' && typeof r.server === 'string',
    );
  }

  /**
   * The app and CLI runs share this file, and each saves the list it holds.
   * Under the folder's lock, what another process wrote since is merged in
   * (its tasks kept, the newer record of a task shared by both winning), so a
   * save never drops a task it has not seen.
   */
  async save(records: TaskRecord[]): Promise<void> {
    const dir = dirname(this.file);
    await ensurePrivateDir(dir);
    await withAppendLock(dir, async () => {
      const merged = mergeRecords(await this.load().catch(() => []), records);
      await writePrivateFile(this.file, `${JSON.stringify({ version: 1, tasks: pruneRecords(merged) }, null, 2)}\n`);
    });
  }
}
