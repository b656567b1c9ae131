// Where the host keeps its files, per platform, overridable for tests and
// portable installs with COUNTERSIGN_DATA_DIR.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data folder: config, history, caches. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COUNTERSIGN_DATA_DIR) return env.COUNTERSIGN_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Countersign');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Countersign');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'countersign');
}

/** The servers file in mcpServers shape. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'servers.json');
}

/** The history journal folder. */
export function historyDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'history');
}
