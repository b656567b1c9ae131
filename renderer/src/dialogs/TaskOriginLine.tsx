import { formatAge, shortTaskId } from '../i18n/age';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';
import { useTaskCancel } from './task-cancel-context';

/**
 * "Task 4f2a9c… of deploy, running 3 min": the question comes from a
 * long-running task, not from a call that just started. The age is read when
 * the dialog draws; no timer runs while the human decides.
 */
export default function TaskOriginLine({ task, name }: { task: { taskId: string; startedAt: string }; name: string }) {
  const t = useT();
  const id = shortTaskId(task.taskId);
  const age = formatAge(Date.now() - Date.parse(task.startedAt), t);
  return (
    <p className="origin-task" dir="auto">
      <span data-testid="origin-task">{t('origin.task', { id, name, age })}</span>
    </p>
  );
}

/**
 * Where the app follows the task, "Cancel task" stops the whole task from
 * here (the rest of the app is inert while the dialog is open); Decline and
 * Cancel answer only this question. It sits in the footer, after the
 * question, so Tab reaches the question and its answers in reading order and
 * never this first.
 */
export function TaskCancelButton({ task, name }: { task: { taskId: string }; name: string }) {
  const t = useT();
  const cancel = useTaskCancel();
  if (!cancel) return null;
  const id = shortTaskId(task.taskId);
  return (
    <DeliberateButton
      className="button button-small button-quiet-danger origin-task-cancel"
      aria-label={t('tasks.cancelLabel', { id, tool: name })}
      title={t('dialog.cancelTaskHint')}
      busy={cancel.busy}
      onActivate={cancel.cancel}
    >
      {t('dialog.cancelTask')}
    </DeliberateButton>
  );
}
