// No link Countersign opens is ever readable in another process's argv or
// environment (issue 21, item 1). A sign-in link carries `state`, the PKCE
// challenge and the loopback port: another user who read them in
// `xdg-open <url>`'s /proc/PID/cmdline could answer the redirect listener
// with their own code and sign you in to their account. A URL question's
// link may carry a session id. Here the real opener runs (a stand-in
// xdg-open first on PATH that, like a browser, stays alive for a moment), and
// a second OS user scans every process's cmdline and environ while it does.
// That user's wrong-state request to the redirect listener then neither ends
// nor finishes the sign-in; the browser's own redirect does.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../shared/elicitation/types';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { HostService } from '../../electron/core/service/host-service';
import { openWithSystem } from '../../electron/web/system-opener';
import { cleanupsAfterEach } from '../support/cleanups';
import { BIN } from '../support/cli';
import { otherUser, runAs } from '../support/other-user';
import { processesHolding, seenByOtherUser } from '../support/proc-scan';
import { followSignInLink, startSignInServers } from '../support/sign-in';
import { waitFor } from '../support/wait-for';

const cleanups = cleanupsAfterEach();
const user = otherUser();

/** A folder the second user can enter, with a stand-in xdg-open that records its argv and stays alive. */
function standInBrowser(): { bin: string; record: string; argv(): string[] } {
  const root = mkdtempSync(join(tmpdir(), 'countersign-links-'));
  chmodSync(root, 0o755);
  cleanups.push(async () => {
    try {
      process.kill(Number(readFileSync(`${record}.pid`, 'utf8')), 'SIGTERM');
    } catch {
      /* not started, or already gone */
    }
    rmSync(root, { recursive: true, force: true });
  });
  const record = join(root, 'opener');
  writeFileSync(
    join(root, 'xdg-open'),
    `#!/bin/sh\nprintf '%s\\n' "$@" > ${record}.argv\necho $$ > ${record}.pid\n` +
      `sleep 60 & S=$!\ntrap 'kill $S; exit 0' TERM\ntouch ${record}.done\nwait\n`,
    { mode: 0o755 },
  );
  return { bin: root, record, argv: () => readFileSync(`${record}.argv`, 'utf8').trimEnd().split('\n') };
}

/** The link a launcher page forwards to. */
function linkIn(page: string): string {
  const m = /http-equiv="refresh" content="0; url=([^"]+)"/.exec(readFileSync(page, 'utf8'));
  if (!m) throw new Error(`no link in ${page}`);
  return m[1]!
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Nowhere on the machine: as root (every cmdline and environ), and as the second user. */
function expectNowhere(secrets: string[], scratch: string): void {
  for (const s of secrets) expect(processesHolding(s), s).toEqual([]);
  if (typeof user !== 'string') expect(seenByOtherUser(user, secrets, scratch)).toEqual([]);
}

describe.skipIf(process.platform !== 'linux')('links never in argv or environment (real opener, /proc scanned)', () => {
  afterEach(() => {
    if (typeof user === 'string') console.warn(`links-out-of-argv: the second-user checks were skipped: ${user}`);
  });

  it('a real sign-in: no state, challenge or link in any process; a wrong-state request from another user is ignored', async () => {
    const { as, server } = await startSignInServers(cleanups);
    const browser = standInBrowser();
    const dataDir = join(browser.bin, 'data');
    const child: ChildProcess = spawn(process.execPath, [BIN, 'auth', 'login', '--url', server.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, COUNTERSIGN_DATA_DIR: dataDir, PATH: `${browser.bin}:${process.env.PATH}` },
    });
    cleanups.push(async () => void (child.exitCode === null && child.kill('SIGKILL')));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout!.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => (existsSync(`${browser.record}.done`) ? true : undefined), `the opener (stderr: ${stderr})`);

    // The opener was given one argument: a private page, not the link.
    const argv = browser.argv();
    expect(argv).toHaveLength(1);
    expect(argv[0]).toMatch(/\/countersign-open-[^/]+\/open-countersign\.html$/);
    const link = new URL(linkIn(argv[0]!));
    const state = link.searchParams.get('state')!;
    const challenge = link.searchParams.get('code_challenge')!;
    expect(state.length).toBeGreaterThan(20);
    expect(challenge.length).toBeGreaterThan(20);

    // While the "browser" is alive: nobody can read the state, the challenge or the link.
    expectNowhere([state, challenge, link.href], browser.bin);

    const redirect = new URL(link.searchParams.get('redirect_uri')!);
    if (typeof user !== 'string') {
      // The page itself is the user's own.
      expect(runAs(user, 'cat', [argv[0]!]).stderr).toMatch(/Permission denied/);
      // Another user answers the listener with a guessed state (and its own code): refused, and only that.
      const forged = `${redirect.href}?code=attackers-code&state=guessed-state`;
      const sent = runAs(user, process.execPath, [
        '-e',
        `fetch(${JSON.stringify(forged)}).then((r) => console.log(r.status))`,
      ]);
      expect(sent.stdout.trim()).toBe('400');
    } else {
      expect((await fetch(`${redirect.href}?code=attackers-code&state=guessed-state`)).status).toBe(400);
    }
    // Reported, and the sign-in goes on waiting (a process that ended here was stopped by one request).
    const reported = await waitFor(
      () =>
        /ignored a sign-in response without the state/.test(stderr)
          ? true
          : child.exitCode !== null
            ? false
            : undefined,
      'the fault',
    );
    expect(reported, stderr).toBe(true);
    expect(child.exitCode).toBeNull();

    // The human's browser follows the link: the sign-in completes with the right state.
    await followSignInLink(link.href);
    expect(await exited, stderr).toBe(0);
    expect(as.tokens.size).toBe(1);
    expect(as.requests.token).toHaveLength(1);
    expect(stderr.match(/ignored a sign-in response/g)).toHaveLength(1);
    // The redirect came: the page is gone.
    expect(existsSync(argv[0]!)).toBe(false);
  });

  it('a URL question’s link (with a session id) reaches the browser only through a private page', async () => {
    const browser = standInBrowser();
    const dataDir = mkdtempSync(join(tmpdir(), 'countersign-links-data-'));
    const savedPath = process.env.PATH;
    process.env.PATH = `${browser.bin}:${savedPath}`;
    cleanups.push(async () => {
      process.env.PATH = savedPath;
      rmSync(dataDir, { recursive: true, force: true });
    });
    // The system opener, as the CLI wires it (`countersign web` hands links to the tab instead, links-in-tab.test.ts).
    const service = await HostService.create({
      dataDir,
      openExternal: (url) => openWithSystem(url),
      firstStartServers: {},
      connectOnStart: false,
    });
    service.log = () => undefined;
    cleanups.push(() => service.close());
    const session = `sess-${Date.now().toString(36)}-4f1c9a7be2d8`;
    const href = `https://pay.example.com/checkout?session_id=${session}`;
    const question: Question = {
      id: 'q1',
      mode: 'url',
      origin: { server: 'shop', era: 'modern', method: 'tools/call', name: 'buy', round: 1, key: 'k' },
      message: 'Pay',
      url: analyzeUrl(href),
    };
    const asked = new AbortController();
    cleanups.push(async () => asked.abort());
    void service.questions.ask(question, asked.signal).catch(() => undefined);
    await expect(service.invoke('openQuestionUrl', { questionId: 'q1' })).resolves.toEqual({ opened: true });
    await waitFor(() => (existsSync(`${browser.record}.done`) ? true : undefined), 'the opener');

    const argv = browser.argv();
    expect(argv).toHaveLength(1);
    expect(argv[0]).toMatch(/open-countersign\.html$/);
    expect(linkIn(argv[0]!)).toBe(href);
    expectNowhere([session, href], browser.bin);
  });
});
