// A hostile authorization server through the real CLI (`auth login` as a
// process, the link followed as the system browser would): the scopes it
// lists, the error it redirects with and the error and non-JSON body of its
// token endpoint never reach the terminal raw; each is printed escaped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestAsOptions } from '../fixtures/oauth/test-authorization-server';
import { HOSTILE, HOSTILE_SHOWN } from '../fixtures/servers/hostile-text';
import { startBin } from '../support/cli';
import { cleanupsAfterEach } from '../support/cleanups';
import { followSignInLink, startSignInServers, type SignInServerOptions } from '../support/sign-in';

const cleanups = cleanupsAfterEach();

/** What a terminal would obey: ESC, BEL, C1 controls, bidi overrides and isolates. */
const RAW = /[\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/;

/** `auth login --no-open` against a protected server and an authorization server bent by the options. */
async function login(asOptions: TestAsOptions, serverOptions: SignInServerOptions = {}) {
  const { server } = await startSignInServers(cleanups, asOptions, serverOptions);
  const bin = startBin(['auth', 'login', '--url', server.url, '--no-open'], mkdtempSync(join(tmpdir(), 'cs-term-')));
  let exited = false;
  void bin.exited.finally(() => (exited = true));
  const end = Date.now() + 60_000;
  let link: string | undefined;
  while (!link && !exited) {
    link = /\[SIGN-IN\] link: (\S+)/.exec(bin.stderr())?.[1];
    if (Date.now() > end) throw new Error(`no link; stderr:\n${bin.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (link) await followSignInLink(link).catch(() => undefined);
  const code = await bin.exited;
  const out = { code, stdout: bin.stdout(), stderr: bin.stderr() };
  expect(out.stdout).not.toMatch(RAW);
  expect(out.stderr).not.toMatch(RAW);
  return out;
}

describe('a hostile authorization server through the real CLI', () => {
  it("its scopes in the [SIGN-IN] scopes line, and its token endpoint's error", async () => {
    const r = await login(
      {
        scopesSupported: ['read', `x${HOSTILE}`],
        tokenAnswer: {
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: `invalid_grant${HOSTILE}`, error_description: HOSTILE }),
        },
      },
      { scopesSupported: ['read', `x${HOSTILE}`] },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\[SIGN-IN\] scopes: .*\\x1b\[2J\\x1b\]0;pwned\\x07/);
    expect(r.stderr).toMatch(/countersign: error: .*\\u202e/);
  });

  it("its token endpoint's non-JSON body", async () => {
    const body = `<h1>${HOSTILE}</h1>`;
    const r = await login({ tokenAnswer: { status: 200, contentType: 'application/json', body } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/countersign: error: /);
  });

  it("the resource its protected resource's metadata names, quoted by the SDK's mismatch error", async () => {
    const r = await login({}, { resource: `https://elsewhere.example/${HOSTILE}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/countersign: error: .*elsewhere\.example/);
  });
});
