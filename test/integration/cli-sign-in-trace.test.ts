// The CLI's sign-ins as a person meets them, with the real test authorization
// server: every sign-in and sign-out leaves its entry in the history (as the
// app's do), an interrupted `auth login` says it was interrupted, and a
// failed refresh whose body echoes the refresh token never prints it (the
// SDK's own console warning included), in the real CLI process.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SignInBody } from '../../shared/history/journal-types';
import { runAuthCommand } from '../../electron/cli/auth-command';
import { runCallCommand } from '../../electron/cli/call-command';
import { JournalHistory } from '../../electron/core/service/journal-history';
import type { TestAsOptions } from '../fixtures/oauth/test-authorization-server';
import { cleanupsAfterEach } from '../support/cleanups';
import { startBin } from '../support/cli';
import { followSignInLink, startSignInServers } from '../support/sign-in';

const cleanups = cleanupsAfterEach();

async function setup(asOptions: TestAsOptions = {}) {
  const { as, server } = await startSignInServers(cleanups, asOptions);
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-signin-trace-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (t: string) => void out.push(t),
    stderr: (t: string) => void err.push(t),
    env: { ...process.env, COUNTERSIGN_DATA_DIR: dataDir },
  };
  return { as, server, dataDir, io, out, err };
}

/** The sign-in entries of the data folder's history, oldest first. */
async function signInEntries(dataDir: string): Promise<SignInBody[]> {
  const history = await JournalHistory.open(join(dataDir, 'history'), { watch: false });
  try {
    const { entries } = await history.query({});
    return entries
      .flatMap((item) => (item.kind === 'other' && item.entry.kind === 'sign-in' ? [item.entry] : []))
      .reverse();
  } finally {
    await history.close();
  }
}

describe('the CLI records its sign-ins in the history', () => {
  it('auth login and auth logout: the same sign-in entries the app writes, without a token', async () => {
    const s = await setup();
    const deps = { signIn: { open: followSignInLink } };
    expect(await runAuthCommand(['login', '--url', s.server.url], s.io, deps)).toBe(0);
    const tokens = [...s.as.tokens.keys()];
    expect(await runAuthCommand(['logout', '--url', s.server.url], s.io, deps)).toBe(0);
    const entries = await signInEntries(s.dataDir);
    expect(entries.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed', 'signed-out']);
    expect(entries.every((e) => e.issuer === s.as.issuer && e.call === undefined)).toBe(true);
    const journal = await readFile(join(s.dataDir, 'history', 'journal.jsonl'), 'utf8').catch(() => '');
    const text = JSON.stringify(entries) + journal;
    for (const t of [...tokens, ...s.as.requests.revoked]) expect(text).not.toContain(t);
  });

  it("a call's own sign-in (here when it connects)", async () => {
    const s = await setup();
    const code = await runCallCommand(['--url', s.server.url, '--tool', 'whoami'], s.io, {
      signIn: { open: followSignInLink },
    });
    expect(code).toBe(0);
    const entries = await signInEntries(s.dataDir);
    expect(entries.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed']);
    expect(entries[2]!.issuer).toBe(s.as.issuer);
  });
});

describe('the CLI as a real process', () => {
  it('auth login stopped by SIGTERM says it was interrupted, and the history says it failed that way', async () => {
    const s = await setup();
    const bin = startBin(['auth', 'login', '--url', s.server.url, '--no-open'], s.dataDir);
    cleanups.push(async () => void bin.child.kill('SIGKILL'));
    for (let i = 0; i < 400 && !bin.stderr().includes('[SIGN-IN] link: '); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(bin.stderr()).toContain('[SIGN-IN] link: ');
    bin.child.kill('SIGTERM');
    expect(await bin.exited).toBe(2);
    expect(bin.stderr()).toContain('the sign-in was interrupted before the browser came back; not signed in');
    expect(bin.stderr()).not.toMatch(/did not come back within/);
    const entries = await signInEntries(s.dataDir);
    expect(entries.map((e) => e.phase)).toEqual(['asked', 'opened', 'failed']);
    expect(entries[2]!.detail).toMatch(/interrupted/);
  }, 60_000);

  it('a refresh refused with a body echoing the refresh token: the token is never printed', async () => {
    const s = await setup({ refreshFailsEchoing: true });
    expect(await runAuthCommand(['login', '--url', s.server.url], s.io, { signIn: { open: followSignInLink } })).toBe(
      0,
    );
    const refreshToken = await keptRefreshToken(s.dataDir);
    expect(refreshToken).toMatch(/^rt-/);
    s.as.tokens.clear(); // the access token is refused: the CLI refreshes, and the refresh fails
    const bin = startBin(['call', '--url', s.server.url, '--tool', 'whoami', '--no-sign-in'], s.dataDir);
    cleanups.push(async () => void bin.child.kill('SIGKILL'));
    expect(await bin.exited).toBe(2);
    expect(s.as.requests.token.at(-1)).toMatchObject({ grant_type: 'refresh_token', refresh_token: refreshToken });
    // The SDK did warn, through the host's redaction.
    expect(bin.stderr()).toContain('Could not refresh OAuth tokens');
    expect(bin.stderr()).toContain('Raw body: (withheld');
    expect(bin.stdout() + bin.stderr()).not.toContain(refreshToken);
    expect(bin.stdout() + bin.stderr()).not.toContain(refreshToken.slice(3));
  }, 60_000);
});

/** The refresh token the CLI kept (the credentials file is plain JSON where no keychain is reachable). */
async function keptRefreshToken(dataDir: string): Promise<string> {
  const text = await readFile(join(dataDir, 'credentials', 'oauth.json'), 'utf8');
  return /"refresh_token":"([^"]+)"/.exec(text)?.[1] ?? '';
}
