// A task record as the host API hands it to the Tasks view: what the server
// reported and whether this host is following it. Arguments stay in the
// host (they are the caller's, and the view does not need them).
import type { LastAnswer, TaskView } from '../../../shared/host-api/contract';
import type { TaskRecord } from './task-store';

/** The view of `record`; `running` says this host follows it now; `lastAnswer` is what its last question got. */
export function toTaskView(record: TaskRecord, running: boolean, lastAnswer?: LastAnswer): TaskView {
  return {
    taskId: record.taskId,
    server: record.server,
    tool: record.tool,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    startedAt: record.startedAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ...(record.endedAt !== undefined ? { endedAt: record.endedAt } : {}),
    running,
    ...(record.result !== undefined ? { result: record.result } : {}),
    ...(record.note !== undefined ? { note: record.note } : {}),
    ...(record.agent !== undefined ? { agent: record.agent } : {}),
    ...(lastAnswer ? { lastAnswer } : {}),
  };
}
