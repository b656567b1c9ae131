// `npm start` on a desktop runs Electron as a watched child (issue 22, item 7): a
// known start failure is named with its fix and the web shell starts instead.
// Before, scripts/start.sh handed over with `exec`, so each of these was a crash.
// The stand-in Electron binaries print what Chromium prints and die the way it
// dies (SIGTRAP from a FATAL check).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnoseStartFailure, runElectron } from './start-electron.mjs';
import { downloadFailureLine } from './start-mode.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), 'start-electron.mjs');
const dir = mkdtempSync(join(tmpdir(), 'countersign-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FATAL = '[4242:1204/153000.123456:FATAL:';
const failures = {
  root: `${FATAL}electron_main_delegate.cc(293)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.`,
  suid:
    `${FATAL}setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. ` +
    "Rather than run without sandboxing I'm aborting now. You need to make sure that " +
    '/home/u/countersign/node_modules/electron/dist/chrome-sandbox is owned by root and has mode 4755.',
  apparmor:
    `${FATAL}zygote_host_impl_linux.cc(128)] No usable sandbox! If you are running on Ubuntu 23.10+ or another ` +
    'Linux distro that has disabled unprivileged user namespaces with AppArmor, see ' +
    'https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md.',
  library:
    '/home/u/countersign/node_modules/electron/dist/electron: error while loading shared libraries: ' +
    'libnss3.so: cannot open shared object file: No such file or directory',
};

/** A stand-in Electron: prints `stderr`, then ends as `end` says. */
function standIn(name: string, stderr: string, end: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' '${stderr.replace(/'/g, "'\\''")}' >&2\n${end}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('diagnoseStartFailure', () => {
  it('names each known failure and its fix', () => {
    const root = diagnoseStartFailure({ stderr: failures.root, code: null, signal: 'SIGTRAP' });
    expect(root).toMatchObject({ known: true, why: expect.stringMatching(/as root/) });
    expect(root.fix).toMatch(/normal user/);
    expect(diagnoseStartFailure({ stderr: failures.suid, code: null, signal: 'SIGTRAP' }).fix).toMatch(/chmod 4755/);
    expect(diagnoseStartFailure({ stderr: failures.apparmor, code: null, signal: 'SIGTRAP' }).why).toMatch(/AppArmor/);
    expect(diagnoseStartFailure({ stderr: failures.library, code: 127, signal: null }).why).toMatch(/\(libnss3\.so\)/);
  });

  it('says plainly when the cause is not recognised', () => {
    expect(diagnoseStartFailure({ stderr: 'something odd', code: 3, signal: null })).toEqual({
      known: false,
      why: 'Electron exited with code 3 while starting, for a reason not recognised (its output is above)',
    });
  });
});

describe('runElectron', () => {
  const quiet = { write: () => true } as unknown as NodeJS.WritableStream;

  it('falls back on a failure during the watch, and passes its output through', async () => {
    const seen: string[] = [];
    const stderr = { write: (chunk: Buffer) => seen.push(chunk.toString()) > 0 } as unknown as NodeJS.WritableStream;
    const electron = standIn('root-electron', failures.root, 'kill -TRAP $$');
    const outcome = await runElectron({ electron, args: ['.'], stderr });
    expect(outcome).toMatchObject({ fallback: { known: true, why: expect.stringMatching(/as root/) } });
    expect(seen.join('')).toContain('Running as root without --no-sandbox');
  });

  it('leaves a clean quick exit and a failure after the start alone', async () => {
    expect(await runElectron({ electron: standIn('closed', '', 'exit 0'), args: ['.'], stderr: quiet })).toEqual({
      exitCode: 0,
    });
    const late = standIn('late-crash', 'bye', 'sleep 1; exit 4');
    expect(await runElectron({ electron: late, args: ['.'], watchMs: 200, stderr: quiet })).toEqual({ exitCode: 4 });
  });

  it('falls back when the binary cannot be run at all', async () => {
    const outcome = await runElectron({ electron: join(dir, 'missing'), args: ['.'], stderr: quiet });
    expect(outcome).toMatchObject({ fallback: { why: expect.stringMatching(/could not be run/) } });
  });
});

describe('scripts/start-electron.mjs', () => {
  it('says why the desktop app did not start, names the fix, and starts the web shell', async () => {
    const electron = standIn('suid-electron', failures.suid, 'kill -TRAP $$');
    const renderer = join(dir, 'renderer');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Countersign</title>');
    const args = [script, electron, '--no-open', '--data-dir', join(dir, 'data'), '--renderer', renderer];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (/Countersign is running at http:\/\/127\.0\.0\.1:\d+\//.test(output)) {
            clearInterval(check);
            resolve();
          }
        }, 50);
        child.once('exit', () => {
          clearInterval(check);
          reject(new Error(`start-electron ended before the web shell ran:\n${output}`));
        });
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(output).toContain("the desktop app did not start: Electron's chrome-sandbox helper is not set up");
    expect(output).toContain('To fix it: sudo chown root:root node_modules/electron/dist/chrome-sandbox');
    expect(output).toContain('starting the web shell instead');
  });
});

describe('downloadFailureLine', () => {
  it('turns an offline stack trace into one line', () => {
    const stack =
      'TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n    at async FetchDownloader';
    expect(downloadFailureLine(stack)).toBe(
      "Electron could not be downloaded: no connection to Electron's download server",
    );
    expect(downloadFailureLine('HTTPError: Response code 404 (Not Found)')).toBe(
      'Electron could not be downloaded: Response code 404 (Not Found)',
    );
  });
});
