// Task statuses, identical in both eras (the 2026-07-28 Tasks extension and
// 2025-11-25 task-augmented requests). Defined once: the core's driver, the
// history journal, the host API and the Tasks view all read this list.

/** Every status a task can report. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** True for a status after which nothing changes. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
