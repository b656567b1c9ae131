// The renderer's stores, built from one HostApi and started together.
import type { HostApi } from '../../../shared/host-api/contract';
import { QuestionQueue } from '../state/question-queue';
import { ServerDirectory } from '../state/server-directory';
import { SettingsStore } from '../state/settings-store';

/** Every store the UI reads. */
export interface RendererStores {
  queue: QuestionQueue;
  directory: ServerDirectory;
  settings: SettingsStore;
  /** Starts all stores (subscribe, then load); resolves when the first loads finished. */
  start(): Promise<void>;
  stop(): void;
}

/** Creates the stores for a HostApi; call `start()` once. */
export function createStores(api: HostApi): RendererStores {
  const queue = new QuestionQueue(api);
  const directory = new ServerDirectory(api);
  const settings = new SettingsStore(api);
  return {
    queue,
    directory,
    settings,
    async start() {
      await Promise.all([queue.start(), directory.start(), settings.start()]);
    },
    stop() {
      queue.stop();
      directory.stop();
      settings.stop();
    },
  };
}
