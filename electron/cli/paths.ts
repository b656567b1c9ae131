// Where the CLI finds the host's files: the same data folder as the app
// (electron/core/history/paths.ts decides it per platform), overridable for
// tests and portable installs with COUNTERSIGN_DATA_DIR.
import { join } from 'node:path';
import { appDataDir, defaultHistoryDir } from '../core/history/paths';

/** The data folder: config, history, caches. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return appDataDir(env);
}

/** The servers file in mcpServers shape. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'servers.json');
}

/** The history journal folder. */
export function historyDir(env: NodeJS.ProcessEnv = process.env): string {
  return defaultHistoryDir(env);
}
