// Starting the app when a question arrives and no app is running (only the
// gateway does this). The app must be one the human can see: the desktop app,
// or the web shell WITH its browser window (a shell started with --no-open
// would hold the question where nobody looks). Tried in order:
//   1. DATA/app-command.json: {"command": ["/opt/Countersign/countersign"]}
//   2. the installed desktop app (macOS /Applications, Windows per-user install),
//      only for the default data folder (the OS launcher cannot pass ours on)
//   3. the desktop app of this source tree (Electron installed and built)
//   4. `countersign web --data-dir DIR` with the same Node and launcher script
// Never from the gateway's own environment: an agent launches the gateway and
// chooses that environment, so an app command (or NODE_OPTIONS, or
// ELECTRON_RUN_AS_NODE) taken from it would let the agent choose who answers.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppLauncher } from '../core/approval/approval-client';
import { HostError } from '../core/host-error';
import { readCheckedFileSync } from '../core/storage/private-files';
import { noInspectorFlags } from '../core/no-inspector';

export type { AppLauncher } from '../core/approval/approval-client';

/** The file in the data folder that names the app to start. */
export const APP_COMMAND_FILE = 'app-command.json';

/**
 * What the started app inherits from the gateway's environment: what it
 * needs to find the user's display, session and locale, and nothing that
 * changes how a program runs (NODE_OPTIONS, ELECTRON_*, LD_*, ...).
 */
// In three groups: the session and locale; the Unix desktop; Windows.
const PASSED_ENV = new RegExp(
  '^(PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|LANGUAGE|LC_[A-Z]+|TZ' +
    '|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|DBUS_SESSION_BUS_ADDRESS|XDG_[A-Z_]+' +
    '|SYSTEMROOT|SystemRoot|APPDATA|LOCALAPPDATA|USERPROFILE|ProgramFiles|COMSPEC|PATHEXT|WINDIR)$',
);

/** The environment a started app gets: the allowed part of `env`, plus its data folder. */
export function appEnvironment(env: NodeJS.ProcessEnv, dataDir: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && PASSED_ENV.test(k)) out[k] = v;
  out.COUNTERSIGN_DATA_DIR = dataDir;
  return out;
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
        env: appEnvironment(env, dataDir),
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
  /** The data folder whose app-command.json names the app, if it has one. */
  dataDir?: string;
  /** Told when the environment tried to name the app (it is ignored). */
  log?: (line: string) => void;
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
  if (env.COUNTERSIGN_APP_COMMAND !== undefined)
    choice.log?.(
      'countersign gateway: COUNTERSIGN_APP_COMMAND is ignored: ' +
        'whoever launches the gateway chooses its environment; ' +
        `name the app in ${APP_COMMAND_FILE} in the data folder instead`,
    );
  if (choice.dataDir !== undefined) {
    const configured = appCommandFromFile(join(choice.dataDir, APP_COMMAND_FILE));
    if (configured) return commandLauncher(configured, APP_COMMAND_FILE, env);
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
      return commandLauncher(
        [process.execPath, ...noInspectorFlags(), bin, 'web'],
        'countersign web (the app in the system browser)',
        env,
      );
  }
  return null;
}

/** The command in an app-command.json; undefined when there is none; a clear error when it is malformed. */
export function appCommandFromFile(file: string): string[] | undefined {
  let text: string | undefined;
  try {
    // It names a program to run as this user: read only when it is this user's own (private-files).
    text = readCheckedFileSync(file);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not JSON: ${(e as Error).message}`);
  }
  const command = (doc as { command?: unknown } | null)?.command;
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((p): p is string => typeof p === 'string' && p !== '')
  )
    throw new Error(
      `${file}: "command" must be a non-empty array of strings, e.g. {"command": ["/path/to/countersign"]}`,
    );
  return command;
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
