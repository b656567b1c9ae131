// @ts-check
// How `npm start` runs Countersign, decided once and said in one line:
// the Electron app where it can run, the web shell (the same app in the
// browser) where it cannot. Electron 42+ has no postinstall (npm ci never
// downloads it, and allowScripts keeps it so): its binary is fetched here, on
// first start, where a display is present and we are not in CI.
// Prints `electron <path>` or `web` on stdout (for scripts/start.sh) and the
// reason on stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');

/**
 * @typedef {{ mode: 'electron', electron: string, reason: string } | { mode: 'web', reason: string }} StartMode
 * @typedef {{
 *   env: Record<string, string | undefined>,
 *   platform: string,
 *   electronBinary: () => string | undefined,
 *   fetchElectron: () => boolean,
 * }} StartProbes
 */

/** True when CI says so (CI=true, CI=1; not CI=false or CI=0). */
function inCi(env) {
  const ci = (env.CI ?? '').toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * The mode and why. Order: an explicit request for the web shell, then a
 * display (Electron cannot open a window without one), then the binary,
 * fetched if missing, except in CI.
 * @param {StartProbes} probes
 * @returns {StartMode}
 */
export function chooseStartMode({ env, platform, electronBinary, fetchElectron }) {
  if (env.COUNTERSIGN_WEB) return { mode: 'web', reason: 'COUNTERSIGN_WEB is set' };
  const display = platform === 'darwin' || platform === 'win32' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  if (!display) return { mode: 'web', reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  const where = platform === 'linux' ? ` (${env.WAYLAND_DISPLAY ? 'Wayland' : `DISPLAY=${env.DISPLAY}`})` : '';
  const installed = electronBinary();
  if (installed) return { mode: 'electron', electron: installed, reason: `a display is present${where}` };
  if (inCi(env)) return { mode: 'web', reason: `Electron is not downloaded in CI (CI=${env.CI})` };
  if (fetchElectron()) {
    const fetched = electronBinary();
    if (fetched)
      return { mode: 'electron', electron: fetched, reason: `a display is present${where}; Electron downloaded` };
  }
  return {
    mode: 'web',
    reason: 'Electron could not be downloaded (the reason is above; retry with "npx install-electron --no")',
  };
}

/** The Electron binary of node_modules/electron, if downloaded (read from path.txt; never triggers a download). */
export function installedElectron(dir = electronDir) {
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/**
 * Why a download of Electron failed, in one line, from the downloader's output
 * (a stack trace such as `TypeError: fetch failed` is no message for a person).
 * @param {string} output
 */
export function downloadFailureLine(output) {
  const error = /^(\w*Error): (.*)$/m.exec(output);
  if (!error) return 'Electron could not be downloaded';
  const reason = /fetch failed|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENETUNREACH/.test(output)
    ? "no connection to Electron's download server"
    : error[2].trim().slice(0, 200);
  return `Electron could not be downloaded: ${reason}`;
}

/** Runs Electron's own downloader quietly; says in one line why it failed. True when it succeeded. */
function fetchElectron() {
  process.stderr.write('== downloading Electron (about 100 MB, first start on this machine)\n');
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status === 0) return true;
  process.stderr.write(`== ${downloadFailureLine(`${result.stdout ?? ''}\n${result.stderr ?? ''}`)}\n`);
  return false;
}

function electronVersion() {
  try {
    return /** @type {{ version: string }} */ (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')))
      .version;
  } catch {
    return '?';
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const choice = chooseStartMode({
    env: process.env,
    platform: process.platform,
    electronBinary: () => installedElectron(),
    fetchElectron,
  });
  process.stderr.write(
    choice.mode === 'electron'
      ? `== starting the desktop app (Electron ${electronVersion()}): ${choice.reason}\n`
      : `== starting the web shell (the same app, in your browser): ${choice.reason}\n`,
  );
  process.stdout.write(choice.mode === 'electron' ? `electron ${choice.electron}\n` : 'web\n');
}
