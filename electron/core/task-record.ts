// A task as the host remembers it: the task store's row and the payload of the
// taskChanged event. Kept apart from the store so the core's events (a floor
// below the tasks folder) can name it without importing the tasks folder.
import type { TaskStatus } from '../../shared/tasks/task-status';

/** One task as the host remembers it. */
export interface TaskRecord {
  taskId: string;
  server: string;
  era: 'modern' | 'legacy';
  tool: string;
  arguments?: Record<string, unknown>;
  /** The host call that created it. */
  callId: string;
  agent?: string;
  /** When the host got the task handle. */
  startedAt: string;
  createdAt: string;
  ttlMs: number | null;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAt: string;
  /** Set once the host stopped following it (terminal, expired, lost). */
  endedAt?: string;
  /** The final tool result (completed). */
  result?: Record<string, unknown>;
  /** Why the host stopped following it when it did not complete. */
  note?: string;
}
