// One task shape for both eras. The 2026-07-28 Tasks extension and the
// 2025-11-25 task-augmented requests spell the same facts differently
// (`ttlMs`/`pollIntervalMs` vs `ttl`/`pollInterval`, `result` inline vs
// `tasks/result`); the driver, the store, the CLI and the UI see this one.

import { TASK_STATUSES, isTerminalStatus, type TaskStatus } from '../../../shared/tasks/task-status';

export { isTerminalStatus, type TaskStatus };

const STATUSES: ReadonlySet<string> = new Set(TASK_STATUSES);

/** What the server last reported about a task. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Lifetime from createdAt in ms; null = unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Modern input_required: outstanding requests by key. */
  inputRequests?: Record<string, unknown>;
  /** Modern completed: the tool result. */
  result?: Record<string, unknown>;
  /** Modern failed: the JSON-RPC error. */
  error?: { code?: number; message?: string; data?: unknown };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/**
 * Read a task object from either era into a snapshot, or explain what is
 * wrong with it (`where` names the message for the error).
 */
export function parseTask(raw: unknown, where: string): TaskSnapshot {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`${where}: the task is not an object`);
  const o = raw as Record<string, unknown>;
  const taskId = str(o.taskId);
  if (!taskId || taskId.length > 512)
    throw new Error(`${where}: taskId is missing or not a string of at most 512 characters`);
  const status = str(o.status);
  if (!status || !STATUSES.has(status)) throw new Error(`${where}: unknown task status ${JSON.stringify(o.status)}`);
  const ttlRaw = 'ttlMs' in o ? o.ttlMs : o.ttl;
  const ttlMs = ttlRaw === null || ttlRaw === undefined ? null : (num(ttlRaw) ?? null);
  const poll = num('pollIntervalMs' in o ? o.pollIntervalMs : o.pollInterval);
  const snap: TaskSnapshot = {
    taskId,
    status: status as TaskStatus,
    createdAt: str(o.createdAt) ?? new Date().toISOString(),
    lastUpdatedAt: str(o.lastUpdatedAt) ?? str(o.createdAt) ?? new Date().toISOString(),
    ttlMs,
  };
  const message = str(o.statusMessage);
  if (message !== undefined) snap.statusMessage = message.slice(0, 2000);
  if (poll !== undefined) snap.pollIntervalMs = poll;
  if (o.inputRequests && typeof o.inputRequests === 'object' && !Array.isArray(o.inputRequests))
    snap.inputRequests = o.inputRequests as Record<string, unknown>;
  if (o.result && typeof o.result === 'object' && !Array.isArray(o.result))
    snap.result = o.result as Record<string, unknown>;
  if (o.error && typeof o.error === 'object' && !Array.isArray(o.error)) snap.error = o.error;
  return snap;
}

/** Milliseconds since epoch when the task's ttl runs out; undefined when unlimited. */
export function expiresAt(snap: Pick<TaskSnapshot, 'createdAt' | 'ttlMs'>): number | undefined {
  if (snap.ttlMs === null) return undefined;
  const created = Date.parse(snap.createdAt);
  return Number.isFinite(created) ? created + snap.ttlMs : undefined;
}
