// The renderer's stores, built from one HostApi and started together.
import type { HostApi } from '../../../shared/host-api/contract';
import { CallStore } from '../state/call-store';
import { HistoryStore } from '../state/history-store';
import { QuestionQueue } from '../state/question-queue';
import { ServerDirectory } from '../state/server-directory';
import { ServerStore } from '../state/server-store';
import { SettingsStore } from '../state/settings-store';
import { TaskStore } from '../state/task-store';
import { openInTab } from './open-in-tab';

/** Every store the UI reads, and the API the views call for one-off requests (the catalog). */
export interface RendererStores {
  api: HostApi;
  queue: QuestionQueue;
  directory: ServerDirectory;
  settings: SettingsStore;
  servers: ServerStore;
  calls: CallStore;
  /** The host's tasks (running and finished). */
  tasks: TaskStore;
  /** Loads nothing until the History view first activates it. */
  history: HistoryStore;
  /** Starts all stores (subscribe, then load); resolves when the first loads finished. */
  start(): Promise<void>;
  /** Re-reads everything after a reconnect (events sent while disconnected are lost). */
  resync(): Promise<void>;
  stop(): void;
}

/** Creates the stores for a HostApi; call `start()` once. */
export function createStores(api: HostApi): RendererStores {
  const queue = new QuestionQueue(api, openInTab);
  const directory = new ServerDirectory(api);
  const settings = new SettingsStore(api);
  const servers = new ServerStore(api);
  const calls = new CallStore(api);
  const history = new HistoryStore(api);
  const tasks = new TaskStore(api);
  return {
    api,
    queue,
    directory,
    settings,
    servers,
    calls,
    tasks,
    history,
    async start() {
      calls.start();
      await Promise.all([queue.start(), directory.start(), settings.start(), servers.start(), tasks.start()]);
    },
    async resync() {
      for (const store of [directory, settings, servers, tasks]) store.stop();
      if (history.active) history.refresh();
      await Promise.all([queue.resync(), directory.start(), settings.start(), servers.start(), tasks.start()]);
    },
    stop() {
      queue.stop();
      directory.stop();
      settings.stop();
      servers.stop();
      calls.stop();
      tasks.stop();
      history.stop();
    },
  };
}
