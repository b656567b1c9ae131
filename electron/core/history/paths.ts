// Where the journal lives by default: the app's data folder + /history.

import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's data folder: $COUNTERSIGN_DATA_DIR, else the platform's per-user app data folder. */
export function appDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.COUNTERSIGN_DATA_DIR) return env.COUNTERSIGN_DATA_DIR;
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Countersign');
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Countersign');
    default:
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'countersign');
  }
}

/** The history journal folder. */
export function defaultHistoryDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  return join(appDataDir(env, platform, home), 'history');
}
