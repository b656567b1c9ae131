import { formatAge, shortTaskId } from '../i18n/age';
import { useT } from '../i18n/i18n-context';

/**
 * "Task 4f2a9c… of deploy, running 3 min": the question comes from a
 * long-running task, not from a call that just started. The age is read when
 * the dialog draws; no timer runs while the human decides.
 */
export default function TaskOriginLine({ task, name }: { task: { taskId: string; startedAt: string }; name: string }) {
  const t = useT();
  const age = formatAge(Date.now() - Date.parse(task.startedAt), t);
  return (
    <p className="origin-task" data-testid="origin-task" dir="auto">
      {t('origin.task', { id: shortTaskId(task.taskId), name, age })}
    </p>
  );
}
