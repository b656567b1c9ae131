// The host's tasks as the Tasks view lists them: loaded once, then kept up to
// date from taskUpdated events. Cancel asks the host; the task's state then
// comes back as the server reports it (cancellation is cooperative), never
// assumed here.
import type { HostApi, TaskView } from '../../../shared/host-api/contract';
import { errorText, Store } from './store';

/** The part of the HostApi the store uses. */
export type TaskHostApi = Pick<HostApi, 'listTasks' | 'cancelTask' | 'on'>;

export interface TaskState {
  /** Newest first. */
  readonly tasks: readonly TaskView[];
  readonly loaded: boolean;
  readonly loadError?: string;
  /** Ids a cancel was asked for and has not come back yet. */
  readonly cancelling: readonly string[];
  /** The last cancel that failed, by task id. */
  readonly cancelErrors: Readonly<Record<string, string>>;
}

/** An event-emitting store of the host's tasks. */
export class TaskStore extends Store<TaskState> {
  private off: (() => void) | null = null;

  constructor(private readonly api: TaskHostApi) {
    super({ tasks: [], loaded: false, cancelling: [], cancelErrors: {} });
  }

  /** Subscribe, then load (updates that arrive during the load are kept). */
  async start(): Promise<void> {
    this.off ??= this.api.on('taskUpdated', (task) => this.put(task));
    try {
      const listed = await this.api.listTasks({});
      // An event newer than the list wins.
      const known = new Map(this.state.tasks.map((t) => [t.taskId, t]));
      const merged = listed.map((t) => known.get(t.taskId) ?? t);
      const extra = this.state.tasks.filter((t) => !listed.some((l) => l.taskId === t.taskId));
      this.set({ tasks: sortTasks([...extra, ...merged]), loaded: true, loadError: undefined });
    } catch (err) {
      this.set({ loaded: true, loadError: errorText(err) });
    }
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  /** Asks the host to cancel; the task shows what the server then reports. */
  async cancel(taskId: string): Promise<void> {
    if (this.state.cancelling.includes(taskId)) return;
    const { [taskId]: _old, ...errors } = this.state.cancelErrors;
    this.set({ cancelling: [...this.state.cancelling, taskId], cancelErrors: errors });
    try {
      this.put(await this.api.cancelTask({ taskId }));
    } catch (err) {
      this.set({ cancelErrors: { ...this.state.cancelErrors, [taskId]: errorText(err) } });
    } finally {
      this.set({ cancelling: this.state.cancelling.filter((id) => id !== taskId) });
    }
  }

  private put(task: TaskView): void {
    const others = this.state.tasks.filter((t) => t.taskId !== task.taskId);
    this.set({ tasks: sortTasks([task, ...others]) });
  }
}

function sortTasks(tasks: TaskView[]): TaskView[] {
  return tasks.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
}
