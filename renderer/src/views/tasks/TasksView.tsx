import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { TaskView } from '../../../../shared/host-api/contract';
import type { RendererStores } from '../../app/stores';
import { formatAge, shortTaskId } from '../../i18n/age';
import { useLanguage, useT } from '../../i18n/i18n-context';
import { useStore } from '../../state/use-store';
import { completedOutcome, type Outcome } from '../tools/call-outcome';
import { describeResult } from '../tools/call-result';
import OutcomeNote from '../tools/OutcomeNote';
import ResultParts from '../tools/ResultParts';
import ViewHeader from '../ViewHeader';
import { STATUS_PILL, statusKey } from './task-format';

/** Props: the stores (the task store is started with the others). */
export interface TasksViewProps {
  stores: Pick<RendererStores, 'tasks'>;
}

/** Ages are redrawn this often; only the text changes, nothing is decided by it. */
const AGE_REFRESH_MS = 30_000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), AGE_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Long-running tool calls the host follows: each running task with its
 * server, tool, status, status message, age and Cancel; finished ones with
 * their result or why they ended. Questions of a task come as dialogs.
 */
export default function TasksView({ stores }: TasksViewProps) {
  const t = useT();
  const state = useStore(stores.tasks);
  const now = useNow();
  const running = state.tasks.filter((task) => task.endedAt === undefined);
  const finished = state.tasks.filter((task) => task.endedAt !== undefined);
  return (
    <div className="view view-tasks">
      <ViewHeader title={t('tasks.title')} lede={t('tasks.lede')} />
      {state.loadError && (
        <p className="banner banner-danger" role="alert">
          {t('tasks.loadFailed', { error: state.loadError })}
        </p>
      )}
      {state.loaded && state.tasks.length === 0 && !state.loadError && (
        <div className="empty">
          <p className="empty-title">{t('tasks.empty')}</p>
          <p className="empty-hint">{t('tasks.emptyHint')}</p>
        </div>
      )}
      {running.length > 0 && (
        <TaskSection id="tasks-running" title={t('tasks.running')}>
          <table className="task-table">
            <thead>
              <tr>
                <th scope="col">{t('tasks.col.server')}</th>
                <th scope="col">{t('tasks.col.tool')}</th>
                <th scope="col">{t('tasks.col.status')}</th>
                <th scope="col">{t('tasks.col.message')}</th>
                <th scope="col">{t('tasks.col.age')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('tasks.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {running.map((task) => (
                <RunningRow
                  key={task.taskId}
                  task={task}
                  now={now}
                  cancelling={state.cancelling.includes(task.taskId)}
                  error={state.cancelErrors[task.taskId]}
                  onCancel={() => void stores.tasks.cancel(task.taskId)}
                />
              ))}
            </tbody>
          </table>
        </TaskSection>
      )}
      {finished.length > 0 && (
        <TaskSection id="tasks-finished" title={t('tasks.finished')}>
          <ul className="task-finished-list">
            {finished.map((task) => (
              <FinishedTask key={task.taskId} task={task} />
            ))}
          </ul>
        </TaskSection>
      )}
    </div>
  );
}

/** A card of tasks: a region named by its heading. */
function TaskSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h3 id={id} className="card-title">
        {title}
      </h3>
      {children}
    </section>
  );
}

interface RunningRowProps {
  task: TaskView;
  now: number;
  cancelling: boolean;
  error: string | undefined;
  onCancel: () => void;
}

function RunningRow({ task, now, cancelling, error, onCancel }: RunningRowProps) {
  const t = useT();
  const id = shortTaskId(task.taskId);
  return (
    <tr data-task-id={task.taskId} data-task-status={task.status}>
      <td>{task.server}</td>
      <td>
        <span className="mono">{task.tool}</span>{' '}
        <span className="task-id mono" title={task.taskId}>
          {id}
        </span>
      </td>
      <td>
        <span className={`pill ${STATUS_PILL[task.status]}`} data-testid="task-status">
          {t(statusKey(task.status))}
        </span>
        {!task.running && <span className="task-unfollowed muted">{t('tasks.notFollowed')}</span>}
      </td>
      <td className="task-message" dir="auto">
        {task.statusMessage ?? ''}
        {task.note && <span className="task-note muted"> {task.note}</span>}
        {error && (
          <span className="task-cancel-error" role="alert">
            {t('tasks.cancelFailed', { error })}
          </span>
        )}
      </td>
      <td className="task-age">{formatAge(now - Date.parse(task.startedAt), t)}</td>
      <td>
        <button
          type="button"
          className="button button-small"
          aria-label={t('tasks.cancelLabel', { id, tool: task.tool })}
          aria-disabled={cancelling || undefined}
          onClick={() => !cancelling && onCancel()}
        >
          {cancelling ? t('tasks.cancelling') : t('tasks.cancel')}
        </button>
      </td>
    </tr>
  );
}

function FinishedTask({ task }: { task: TaskView }) {
  const t = useT();
  const language = useLanguage();
  const described = useMemo(() => (task.result ? describeResult(task.result) : null), [task.result]);
  const ended = task.endedAt ? new Date(task.endedAt).toLocaleString(language) : '';
  const completed = { state: task.status, label: statusKey(task.status) };
  const outcome: Outcome =
    task.status === 'completed'
      ? completedOutcome(completed, described?.isError ?? false, task.lastAnswer)
      : { ...completed, pill: STATUS_PILL[task.status] };
  return (
    <li
      className="task-finished"
      data-task-id={task.taskId}
      data-task-status={task.status}
      data-task-outcome={outcome.state}
    >
      <div className="task-finished-head">
        <span className={`pill ${outcome.pill}`} data-testid="task-status">
          {t(outcome.label)}
        </span>
        <span className="mono">{task.tool}</span>
        <span className="muted">{t('tasks.onServer', { server: task.server })}</span>
        <span className="task-id mono" title={task.taskId}>
          {shortTaskId(task.taskId)}
        </span>
        <span className="task-ended muted">{ended}</span>
      </div>
      {task.note && (
        <p className="task-note muted" dir="auto">
          {task.note}
        </p>
      )}
      <OutcomeNote outcome={outcome} className="task-outcome-note" testId="task-outcome-note" />
      {described && <ResultParts described={described} testId="task-result" />}
    </li>
  );
}
