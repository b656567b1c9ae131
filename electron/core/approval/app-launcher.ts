// Starting the app when a question arrives and no app is running. The app
// must be one the human can see: the desktop app, or the web shell WITH its
// browser window (a shell started with --no-open would hold the question
// where nobody looks). Tried in order:
//   1. COUNTERSIGN_APP_COMMAND: a JSON array, e.g. ["/opt/Countersign/countersign"]
//   2. the installed desktop app (macOS /Applications, Windows per-user install),
//      only for the default data folder (the OS launcher cannot pass ours on)
//   3. the desktop app of this source tree (Electron installed and built)
//   4. `countersign web --data-dir DIR` with the same Node and launcher script
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Something that can start the app for a data folder. */
export interface AppLauncher {
  /** For logs and error messages. */
  readonly description: string;
  /** Start it, detached; `exited` settles if the started process ends (with its code). */
  start(dataDir: string): Promise<{ exited: Promise<number | null> }>;
}

/** A launcher running `command` detached from the gateway, with COUNTERSIGN_DATA_DIR set. */
export function commandLauncher(
  command: readonly string[],
  description = command.join(' '),
  env: NodeJS.ProcessEnv = process.env,
): AppLauncher {
  const [file, ...args] = command;
  if (!file) throw new Error('empty app command');
  return {
    description,
    async start(dataDir) {
      const child = spawn(file, args, {
        detached: true,
        stdio: 'ignore',
        windowsHide: true,
        env: { ...env, COUNTERSIGN_DATA_DIR: dataDir },
      });
      const exited = new Promise<number | null>((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.once('error', () => resolve(-1));
      });
      child.unref();
      return { exited };
    },
  };
}

/** Options for choosing the default launcher. */
export interface LauncherChoice {
  env?: NodeJS.ProcessEnv;
  /** True when the data folder is the platform default (no COUNTERSIGN_DATA_DIR, no --data-dir). */
  defaultDataDir?: boolean;
  platform?: NodeJS.Platform;
  /** Where to search upwards for the source tree (default: this module's folder). */
  from?: string;
}

/** The launcher to use, or null when starting the app is turned off. */
export function defaultLauncher(choice: LauncherChoice = {}): AppLauncher | null {
  const env = choice.env ?? process.env;
  if (env.COUNTERSIGN_GATEWAY_AUTOSTART === '0') return null;
  if (env.COUNTERSIGN_APP_COMMAND) {
    const parsed: unknown = JSON.parse(env.COUNTERSIGN_APP_COMMAND);
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((p) => typeof p === 'string')) {
      throw new Error('COUNTERSIGN_APP_COMMAND must be a JSON array of strings, e.g. ["/path/to/countersign"]');
    }
    return commandLauncher(parsed, 'COUNTERSIGN_APP_COMMAND', env);
  }
  const platform = choice.platform ?? process.platform;
  if (choice.defaultDataDir) {
    const installed = installedApp(platform, env);
    if (installed) return installed;
  }
  const root = sourceRoot(choice.from ?? dirname(fileURLToPath(import.meta.url)));
  if (root) {
    const electron = devElectron(root);
    if (electron) return commandLauncher([electron, root], 'the desktop app of this source tree (Electron)', env);
    const bin = join(root, 'bin', 'countersign.mjs');
    if (existsSync(bin))
      return commandLauncher([process.execPath, bin, 'web'], 'countersign web (the app in the system browser)', env);
  }
  return null;
}

function installedApp(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): AppLauncher | undefined {
  if (platform === 'darwin') {
    for (const app of ['/Applications/Countersign.app', join(homedir(), 'Applications', 'Countersign.app')]) {
      if (existsSync(app)) return commandLauncher(['open', '-a', app], app, env);
    }
  }
  if (platform === 'win32') {
    const candidates = [
      env.LOCALAPPDATA && join(env.LOCALAPPDATA, 'Programs', 'countersign', 'Countersign.exe'),
      env.ProgramFiles && join(env.ProgramFiles, 'Countersign', 'Countersign.exe'),
    ];
    for (const exe of candidates) if (exe && existsSync(exe)) return commandLauncher([exe], exe, env);
  }
  return undefined;
}

/** The repository (or unpacked build) root: the nearest folder above with bin/countersign.mjs. */
function sourceRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'bin', 'countersign.mjs')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dir === parse(dir).root) return undefined;
  }
}

/**
 * The Electron binary of a built source tree, read from the electron package's path.txt
 * (requiring that package downloads Electron when it is missing: a gateway must never do that).
 */
function devElectron(root: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main?: string };
    if (!pkg.main || !existsSync(join(root, pkg.main))) return undefined;
    const electronDir = join(root, 'node_modules', 'electron');
    const rel = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const binary = join(electronDir, 'dist', rel);
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
