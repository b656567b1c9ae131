// @ts-check
// `npm start` on a desktop: runs Electron as a child and watches its first
// seconds. Electron often cannot start on Linux desktops for reasons that have
// nothing to do with Countersign (running as root, an unconfigured
// chrome-sandbox, Ubuntu 24.04's AppArmor limit on user namespaces, a missing
// system library). Handing over with `exec` turned each of those into a crash;
// here a start failure is named, its fix is said, and the same app starts in
// the browser through the web shell instead.
//
// Usage: node scripts/start-electron.mjs <electron binary> [web shell arguments…]
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** How long a start is watched: a failure to start shows within a second or two; a running app is left alone. */
export const START_WATCH_MS = 15_000;
/** Electron's stderr kept for the diagnosis (the fatal line is among the last ones). */
const TAIL_BYTES = 16 * 1024;

/**
 * The known ways Electron fails to start on Linux, each with the message
 * Chromium prints and what fixes it.
 * @type {{ test: RegExp, why: string, fix: string }[]}
 */
export const KNOWN_START_FAILURES = [
  {
    test: /Running as root without --no-sandbox is not supported/,
    why: 'Electron refuses to run as root with its sandbox on',
    fix: 'start Countersign as your normal user (not root or sudo)',
  },
  {
    test: /SUID sandbox helper binary was found, but is not configured correctly/,
    why: "Electron's chrome-sandbox helper is not set up (it must be owned by root with mode 4755)",
    fix:
      'sudo chown root:root node_modules/electron/dist/chrome-sandbox && ' +
      'sudo chmod 4755 node_modules/electron/dist/chrome-sandbox',
  },
  {
    test: /No usable sandbox!|apparmor-userns-restrictions/,
    why:
      'the system does not allow the unprivileged user namespaces Electron sandboxes itself with ' +
      '(Ubuntu 23.10+ AppArmor)',
    fix:
      'allow them for Electron with an AppArmor profile, see ' +
      'https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md ' +
      '(or set COUNTERSIGN_WEB=1 to use the browser)',
  },
  {
    test: /error while loading shared libraries: ([^\s:]+)/,
    why: 'a system library Electron needs is missing',
    fix:
      "install your distribution's package for the library named above " +
      '(for example libnss3, libgtk-3-0, libasound2)',
  },
  {
    test: /Missing X server or \$DISPLAY|cannot open display|The platform failed to initialize/,
    why: 'Electron cannot reach the display',
    fix: 'check DISPLAY or WAYLAND_DISPLAY, or set COUNTERSIGN_WEB=1 to use the browser',
  },
];

/**
 * Why Electron did not start, from how it ended and the tail of its stderr.
 * @param {{ stderr: string, code: number | null, signal: NodeJS.Signals | null }} ended
 * @returns {{ why: string, fix?: string, known: boolean }}
 */
export function diagnoseStartFailure({ stderr, code, signal }) {
  for (const failure of KNOWN_START_FAILURES) {
    const match = failure.test.exec(stderr);
    if (match) {
      const library = failure.test.source.startsWith('error while loading') ? ` (${match[1]})` : '';
      return { why: `${failure.why}${library}`, fix: failure.fix, known: true };
    }
  }
  const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
  return { why: `Electron ${how} while starting, for a reason not recognised (its output is above)`, known: false };
}

/**
 * Run Electron and watch its start. Resolves with Electron's exit code once it
 * ended after a good start, or with `{ fallback }` when it failed to start.
 * Electron's output is passed through as it comes.
 * @param {{ electron: string, args: string[], watchMs?: number, stderr?: NodeJS.WritableStream,
 *   env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ exitCode: number } | { fallback: ReturnType<typeof diagnoseStartFailure> }>}
 */
export function runElectron({ electron, args, watchMs = START_WATCH_MS, stderr = process.stderr, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(electron, args, { cwd: root, env, stdio: ['inherit', 'inherit', 'pipe'] });
    let tail = '';
    let starting = true;
    const watch = setTimeout(() => (starting = false), watchMs);
    child.stderr?.on('data', (chunk) => {
      stderr.write(chunk);
      if (starting) tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    });
    const forward = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      clearTimeout(watch);
      resolve({ fallback: { why: `Electron could not be run: ${error.message}`, known: false } });
    });
    child.once('close', (code, signal) => {
      clearTimeout(watch);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      // A clean exit during the watch is the person closing the app quickly, not a failure.
      if (starting && code !== 0) resolve({ fallback: diagnoseStartFailure({ stderr: tail, code, signal }) });
      else resolve({ exitCode: code ?? 1 });
    });
  });
}

/** The web shell, as `npm start` runs it where Electron cannot. */
function runWebShell(/** @type {string[]} */ args) {
  const child = spawn(process.execPath, [join(root, 'bin', 'countersign.mjs'), 'web', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  const forward = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.once('close', (code) => process.exit(code ?? 1));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [electron, ...webArgs] = process.argv.slice(2);
  if (!electron) {
    process.stderr.write('usage: node scripts/start-electron.mjs <electron binary> [web shell arguments…]\n');
    process.exit(2);
  }
  const watchMs = Number(process.env.COUNTERSIGN_START_WATCH_MS) || START_WATCH_MS;
  const outcome = await runElectron({ electron, args: ['.'], watchMs });
  if ('exitCode' in outcome) process.exit(outcome.exitCode);
  const { why, fix } = outcome.fallback;
  process.stderr.write(`== the desktop app did not start: ${why}.\n`);
  if (fix) process.stderr.write(`   To fix it: ${fix}.\n`);
  process.stderr.write('== starting the web shell instead (the same app, in your browser)\n');
  runWebShell(webArgs);
}
