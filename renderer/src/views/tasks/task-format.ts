// Words and colours for task statuses. Pure.
import type { TaskStatus } from '../../../../shared/tasks/task-status';
import type { MessageKey } from '../../i18n/en';

/** The dictionary key of a status. */
export function statusKey(status: TaskStatus): MessageKey {
  return `tasks.status.${status}`;
}

/** The pill colour of a status. */
export const STATUS_PILL: Record<TaskStatus, string> = {
  working: 'pill-info',
  input_required: 'pill-warning',
  completed: 'pill-success',
  failed: 'pill-danger',
  cancelled: 'pill-neutral',
};
