// The web shell's token never sits in any process's argv or environment
// (issue 9, item 1): /proc/PID/cmdline is readable by every user on the
// machine, so `xdg-open http://…/#token=…` handed the session to all of them.
// The real `countersign web` runs with an opener we control (--open-with, a
// flag, never an environment variable an agent could set); while that opener
// is alive, every process's argv and environment on the machine is searched
// for the token. The opener gets a private launcher page instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { otherUser, runAs } from '../support/other-user';
import { processesHolding } from '../support/proc-scan';
import { makeRendererDir } from './helpers';
import { waitFor } from '../support/wait-for';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const URL_LINE = /^Countersign is running at (http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43}))$/;

describe.skipIf(process.platform !== 'linux')('the web shell token channel (real process)', () => {
  let root: string;
  let renderer: ReturnType<typeof makeRendererDir>;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'countersign-token-'));
    chmodSync(root, 0o755); // a traversable parent, like a home folder
    renderer = makeRendererDir();
  });
  const openers: string[] = [];
  afterEach(() => {
    // The stand-in browsers wait to be looked at; stop any a failed test left.
    for (const pidFile of openers.splice(0))
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
      } catch {
        /* not started, or already gone */
      }
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(() => {
    renderer.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  // Both ways the browser is opened: --open-with, and the system opener (xdg-open, found on PATH,
  // as when the gateway autostarts `countersign web`).
  it.each(['--open-with', 'xdg-open'] as const)(
    'hands the opener (%s) a private launcher page, and no process on the machine has the token in argv or environment',
    async (how) => {
      const bin = mkdtempSync(join(root, `bin-`));
      chmodSync(bin, 0o755);
      const record = join(bin, 'opener');
      openers.push(`${record}.pid`);
      const opener = join(bin, how === 'xdg-open' ? 'xdg-open' : 'fake-browser.sh');
      // Stands in for xdg-open + browser: records its argv and environment, then stays alive
      // (a browser keeps its argv for as long as it runs) until the test has looked.
      writeFileSync(
        opener,
        `#!/bin/sh\nprintf '%s\\n' "$@" > ${record}.argv\nenv > ${record}.env\necho $$ > ${record}.pid\nsleep 60 & S=$!\ntrap 'kill $S; exit 0' TERM\ntouch ${record}.done\nwait\n`,
        { mode: 0o755 },
      );
      const dataDir = join(bin, 'data');
      child = spawn(
        process.execPath,
        [
          join(repo, 'bin', 'countersign.mjs'),
          'web',
          '--port',
          '0',
          '--data-dir',
          dataDir,
          '--renderer',
          renderer.rendererDir,
          ...(how === '--open-with' ? ['--open-with', opener] : []),
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, PATH: how === 'xdg-open' ? `${bin}:${process.env.PATH}` : process.env.PATH },
        },
      );
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (c) => (stderr += c));
      const lines: string[] = [];
      createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
      const line = await waitFor(() => lines.find((l) => URL_LINE.test(l)), `the URL line (stderr: ${stderr})`);
      const [, url, port, token] = URL_LINE.exec(line)!;
      await waitFor(() => (existsSync(`${record}.done`) ? true : undefined), 'the opener to run');

      // The opener was given one argument: the launcher page, not the URL.
      const argv = readFileSync(`${record}.argv`, 'utf8').trimEnd().split('\n');
      expect(argv).toHaveLength(1);
      const launcher = argv[0]!;
      expect(launcher).toMatch(/open-countersign\.html$/);
      expect(argv.join(' ')).not.toContain(token);
      expect(readFileSync(`${record}.env`, 'utf8')).not.toContain(token);
      // Nowhere on the machine: the shell, its opener, anything they started.
      if (process.getuid?.() === 0) expect(processesHolding(token!)).toEqual([]);
      else expect(processesHolding(token!).filter((p) => !p.startsWith(`${process.pid} `))).toEqual([]);

      // The page is private: 0600 in a 0700 folder of ours, and it forwards to the URL.
      expect(statSync(launcher).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(launcher)).mode & 0o777).toBe(0o700);
      expect(statSync(dirname(launcher)).uid).toBe(process.getuid?.());
      expect(readFileSync(launcher, 'utf8')).toContain(`url=${url}`);

      const user = otherUser();
      if (typeof user !== 'string') {
        const peek = runAs(user, 'cat', [launcher]);
        expect(peek.stdout).not.toContain(token);
        expect(peek.stderr).toMatch(/Permission denied/);
        // What that user can read of the shell's own command line holds no token either.
        const cmdline = runAs(user, 'cat', [`/proc/${child.pid}/cmdline`]);
        expect(cmdline.status).toBe(0);
        expect(cmdline.stdout).toContain('countersign.mjs');
        expect(cmdline.stdout).not.toContain(token);
      }

      // A tab that comes in with the token: the launcher page has done its job and is removed.
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, ['countersign.v1', `countersign.token.${token}`], {
        origin: `http://127.0.0.1:${port}`,
      });
      await new Promise((res, rej) => ws.once('open', res).once('error', rej));
      await waitFor(() => (existsSync(launcher) ? undefined : true), 'the launcher page to be removed', 5000);
      ws.close();
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
      if (typeof user === 'string') console.warn(`token channel: the second-user checks were skipped: ${user}`);
    },
  );
});
