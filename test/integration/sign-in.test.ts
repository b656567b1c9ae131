// Sign-in end to end with real parts: the core's Host against a real MCP
// server behind bearer auth on 127.0.0.1, and a real authorization server
// (test/fixtures/oauth) bent one way per refusal. The "browser" loads the
// authorization link and follows the redirect to the core's own loopback
// listener, as a system browser would.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SignInQuestion } from '../../shared/auth/types';
import { ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { FileCredentialStore } from '../../electron/core/auth/credential-store';
import type { SignInEvent } from '../../electron/core/auth/server-auth';
import type { OAuthSettings } from '../../electron/core/config/server-config';
import { Host } from '../../electron/core/host';
import type { ProtectedServer } from '../fixtures/oauth/protected-server';
import type { TestAs, TestAsOptions } from '../fixtures/oauth/test-authorization-server';
import { cleanupsAfterEach } from '../support/cleanups';
import { followSignInLink, startSignInServers } from '../support/sign-in';

const cleanups = cleanupsAfterEach();

interface Setup {
  as: TestAs;
  server: ProtectedServer;
  host: Host;
  store: FileCredentialStore;
  dir: string;
  questions: SignInQuestion[];
  events: SignInEvent[];
  opened: string[];
  /** What the redirect listener reported as not this sign-in's answer. */
  faults: string[];
  /** Links whose launcher page the sign-in closed (the browser is done with it). */
  closed: string[];
}

async function setup(
  asOptions: TestAsOptions = {},
  opts: {
    decide?: 'open' | 'cancel';
    oauth?: OAuthSettings;
    toolScopes?: Record<string, string[]>;
    challengeScope?: string;
    authorizationServers?: (as: TestAs) => string[];
    allowSignIn?: boolean;
    /** The "browser" (default: load the link and follow its redirect). */
    browse?: (link: string) => Promise<void>;
  } = {},
): Promise<Setup> {
  const { as, server } = await startSignInServers(cleanups, asOptions, (as) => ({
    ...(opts.authorizationServers ? { authorizationServers: () => opts.authorizationServers!(as) } : {}),
    ...(opts.challengeScope ? { challengeScope: opts.challengeScope } : {}),
    ...(opts.toolScopes ? { toolScopes: opts.toolScopes } : {}),
  }));
  const dir = await mkdtemp(join(tmpdir(), 'cs-signin-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = new FileCredentialStore(join(dir, 'credentials'), { keychain: null });
  const questions: SignInQuestion[] = [];
  const events: SignInEvent[] = [];
  const opened: string[] = [];
  const faults: string[] = [];
  const closed: string[] = [];
  const scripted = new ScriptedPrompter([]);
  const host = new Host({
    servers: { notes: { url: server.url, ...(opts.oauth ? { oauth: opts.oauth } : {}) } },
    prompter: {
      ask: (q, s) => scripted.ask(q, s),
      signIn: (q) => {
        questions.push(q);
        return Promise.resolve(opts.decide ?? 'open');
      },
    },
    auth: {
      store,
      allowSignIn: opts.allowSignIn ?? true,
      open: async (url) => {
        opened.push(url);
        await (opts.browse ?? followSignInLink)(url);
        return { close: async () => void closed.push(url) };
      },
      onEvent: (e) => void events.push(e),
      onFault: (m) => void faults.push(m),
      callbackTimeoutMs: 20_000,
    },
  });
  cleanups.push(() => host.close());
  return { as, server, host, store, dir, questions, events, opened, faults, closed };
}

const callWhoami = (s: Setup) => s.host.call({ server: 'notes', method: 'tools/call', name: 'whoami', arguments: {} });

async function noTokenStored(s: Setup) {
  const creds = await s.store.load(s.server.url);
  const anyTokens = Object.values(creds?.issuers ?? {}).some((i) => i.tokens);
  expect(anyTokens).toBe(false);
  expect(s.as.tokens.size).toBe(0);
}

describe('signing in to a protected server', () => {
  it('asks the human first, opens the link only then, gets the result, keeps the tokens in a 0600 file', async () => {
    const s = await setup({}, { challengeScope: 'mcp:read' });
    const { result } = await callWhoami(s);
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.questions).toHaveLength(1);
    const q = s.questions[0]!;
    expect(q).toMatchObject({ mode: 'sign-in', server: 'notes', issuer: s.as.issuer, scopes: ['mcp:read'] });
    expect(q.call).toMatchObject({ method: 'tools/call', name: 'whoami' });
    expect(q.url.host).toBe(new URL(s.as.issuer).hostname);
    // The link the human saw is the link that was opened, carrying state, S256 and resource.
    expect(s.opened).toEqual([q.url.href]);
    const link = new URL(q.url.href);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link.searchParams.get('resource')).toBe(s.server.url);
    expect(link.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The token request carried the resource too (RFC 8707).
    expect(s.as.requests.token[0]).toMatchObject({ grant_type: 'authorization_code', resource: s.server.url });
    expect(s.events.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed']);
    // History events name server, issuer and scopes, never a token or a code.
    const text = JSON.stringify(s.events);
    for (const t of s.server.seenTokens) expect(text).not.toContain(t);
    expect(text).not.toContain(s.as.requests.token[0]!.code!);
    const file = join(s.dir, 'credentials', 'oauth.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(s.dir, 'credentials'))).mode & 0o777).toBe(0o700);
    expect(await readFile(file, 'utf8')).toContain(s.server.seenTokens[0]!);
    const status = await s.host.serverAuth('notes')!.status();
    expect(status).toMatchObject({ signedIn: true, issuer: s.as.issuer, scopes: ['mcp:read'], renewable: true });
    expect(JSON.stringify(status)).not.toContain('at-');
  });

  it('uses the refresh token silently: no question when the access token is rejected', async () => {
    const s = await setup();
    await callWhoami(s);
    expect(s.questions).toHaveLength(1);
    s.as.tokens.clear(); // the access token expires at the server
    await s.host.disconnect('notes');
    const { result } = await callWhoami(s);
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.questions).toHaveLength(1);
    expect(s.as.requests.token.map((t) => t.grant_type)).toEqual(['authorization_code', 'refresh_token']);
  });

  it('steps up on 403 insufficient_scope with the union of scopes, once', async () => {
    const s = await setup({}, { challengeScope: 'mcp:read', toolScopes: { write_note: ['mcp:write'] } });
    await callWhoami(s);
    const { result } = await s.host.call({ server: 'notes', method: 'tools/call', name: 'write_note', arguments: {} });
    expect(JSON.stringify(result)).toContain('note written');
    expect(s.questions.map((q) => q.scopes.join(' '))).toEqual(['mcp:read', 'mcp:read mcp:write']);
    expect(s.questions[1]!.stepUp).toBe(true);
  });

  it('sign-out revokes at the server (RFC 7009) and deletes', async () => {
    const s = await setup();
    await callWhoami(s);
    const token = s.server.seenTokens.at(-1)!;
    const r = await s.host.serverAuth('notes')!.signOut();
    expect(r).toEqual({ revoked: true, revocationSupported: true });
    expect(s.as.requests.revoked).toContain(token);
    expect(await s.store.load(s.server.url)).toBeUndefined();
  });
});

describe('refusals: a clear message and no token stored', () => {
  const refuses = async (s: Setup, pattern: RegExp) => {
    await expect(callWhoami(s)).rejects.toThrow(pattern);
    await noTokenStored(s);
  };

  it('no S256 offered', async () => {
    const s = await setup({ challengeMethods: ['plain'] });
    await refuses(s, /does not offer PKCE with S256/);
    expect(s.questions).toHaveLength(0);
    expect(s.as.requests.register).toBe(0);
  });

  it('S256 support not stated (code_challenge_methods_supported missing)', async () => {
    const s = await setup({ challengeMethods: null });
    await refuses(s, /does not say it supports PKCE with S256/);
    expect(s.questions).toHaveLength(0);
  });

  // Anyone on this computer can reach the listener: a response without the state is refused and
  // reported, and neither ends the sign-in nor finishes it; the browser's own response then does.
  it('a wrong state on the redirect is ignored (one fault), and the sign-in waits for its own', async () => {
    let wrongRefused = false;
    const s = await setup(
      { state: 'wrong' },
      {
        browse: async (link) => {
          const res = await fetch(link, { redirect: 'manual' });
          const back = new URL(res.headers.get('location')!);
          const stray = await fetch(back);
          expect(stray.status).toBe(400);
          expect(await stray.text()).not.toContain(back.searchParams.get('code')!);
          wrongRefused = true;
          back.searchParams.set('state', new URL(link).searchParams.get('state')!);
          await (await fetch(back)).text();
        },
      },
    );
    const { result } = await callWhoami(s);
    expect(wrongRefused).toBe(true);
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.faults).toEqual([
      expect.stringMatching(/^sign-in to "notes": ignored a sign-in response without the state/),
    ]);
    expect(s.as.requests.token).toHaveLength(1);
    expect(s.events.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed']);
    // The redirect came: the launcher page (state, challenge) is removed at once.
    expect(s.closed).toEqual(s.opened);
  });

  it('a sign-in that ends without the redirect removes its launcher page too', async () => {
    const controller = new AbortController();
    const s = await setup({}, { browse: async () => void setImmediate(() => controller.abort()) });
    await expect(
      s.host.call({ server: 'notes', method: 'tools/call', name: 'whoami', arguments: {}, signal: controller.signal }),
    ).rejects.toThrow();
    expect(s.opened).toHaveLength(1);
    expect(s.closed).toEqual(s.opened);
  });

  it('a wrong iss, without the authorization server’s own error text', async () => {
    const s = await setup({ iss: 'wrong' });
    await refuses(s, /did not come from the authorization server Countersign asked/);
    expect(s.as.requests.token).toHaveLength(0);
  });

  it('a missing iss where the server advertises it', async () => {
    const s = await setup({ iss: 'omit' });
    await refuses(s, /iss check/);
    expect(s.as.requests.token).toHaveLength(0);
  });

  it('an authorization server host in Punycode', async () => {
    const s = await setup({}, { authorizationServers: () => ['https://xn--pple-43d.com'] });
    await refuses(s, /Punycode/);
    expect(s.questions).toHaveLength(0);
  });

  it('a token endpoint on plain http', async () => {
    const s = await setup({ tokenEndpoint: 'http://auth.example.test/token' });
    await refuses(s, /token_endpoint \(auth\.example\.test\) uses plain http/);
    expect(s.questions).toHaveLength(0);
  });

  it('a token endpoint on http://*.localhost: refused for plain http, by the same loopback rule as every link', async () => {
    const s = await setup({ tokenEndpoint: 'http://auth.localhost/token' });
    await refuses(s, /token_endpoint \(auth\.localhost\) uses plain http; sign-in needs https/);
    expect(s.questions).toHaveLength(0);
  });

  it('metadata naming another issuer: the issuer check’s own words, not the redirect’s iss check', async () => {
    const s = await setup({ metadataIssuer: 'https://other-issuer.example.com' });
    const error = (await callWhoami(s).then(
      () => new Error('resolved'),
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/metadata names another issuer than the one Countersign asked \(issuer check/);
    expect(error.message).not.toMatch(/iss check|did not come from/);
    expect(s.questions).toHaveLength(0);
    await noTokenStored(s);
  });

  it('a token endpoint that redirects elsewhere: said so, not "server_error"', async () => {
    const s = await setup({ tokenRedirect: 'https://elsewhere.example.com/token' });
    const error = (await callWhoami(s).then(
      () => new Error('resolved'),
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      /request to 127\.0\.0\.1:\d+\/token with a redirect to elsewhere\.example\.com \(HTTP 307\), which Countersign does not follow/,
    );
    expect(error.message).not.toContain('server_error');
    expect(s.events.at(-1)).toMatchObject({ phase: 'failed', error: error.message });
    await noTokenStored(s);
  });

  it('step-up past the limit', async () => {
    const s = await setup({ withholdScopes: ['mcp:admin'] }, { toolScopes: { whoami: ['mcp:admin'] } });
    await expect(callWhoami(s)).rejects.toThrow(/still refuses with "insufficient scope" after 1 step-up sign-in/);
    // Asked twice (the sign-in, one step-up), never a third time; no token has the scope.
    expect(s.questions).toHaveLength(2);
    expect([...s.as.tokens.values()].some((scopes) => scopes.includes('mcp:admin'))).toBe(false);
  });

  it('the human cancels: the call ends as declined, nothing opened', async () => {
    const s = await setup({}, { decide: 'cancel' });
    await expect(callWhoami(s)).rejects.toMatchObject({ code: 'auth', details: { reason: 'declined' } });
    expect(s.opened).toHaveLength(0);
    expect(s.as.requests.authorize).toBe(0);
    expect(s.events.map((e) => e.phase)).toEqual(['asked', 'cancelled']);
  });

  it('the authorization server denies: its description text is never repeated', async () => {
    const s = await setup({ deny: 'SECRET-AS-TEXT click https://evil.example' });
    const error = (await callWhoami(s).then(
      () => new Error('resolved'),
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/did not grant the sign-in \(access_denied\)/);
    expect(error.message).not.toContain('SECRET-AS-TEXT');
    await noTokenStored(s);
  });

  it('a run that may not ask (--no-sign-in, the gateway agent side): "sign-in needed", nothing opened', async () => {
    const s = await setup({}, { allowSignIn: false });
    await expect(callWhoami(s)).rejects.toMatchObject({ code: 'sign-in-needed' });
    expect(s.opened).toHaveLength(0);
    expect(s.as.requests.authorize).toBe(0);
  });
});

describe('a pre-registered client from the config entry', () => {
  it('is used instead of registering', async () => {
    const s = await setup({}, { oauth: { clientId: 'configured-client' } });
    await callWhoami(s);
    expect(s.as.requests.register).toBe(0);
    expect(new URL(s.questions[0]!.url.href).searchParams.get('client_id')).toBe('configured-client');
  });
});

describe('the CLI', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env: {} },
    };
  };

  it('call --no-sign-in: exit 2 with one clear line, nothing opened', async () => {
    const s = await setup();
    const { runCallCommand } = await import('../../electron/cli/call-command');
    const r = io();
    const opened: string[] = [];
    const code = await runCallCommand(['--url', s.server.url, '--tool', 'whoami', '--no-sign-in'], r.io, {
      signIn: { store: s.store, open: (u) => Promise.resolve(void opened.push(u)) },
    });
    expect(code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/needs a sign-in; run: countersign auth login --server/);
    expect(opened).toHaveLength(0);
  });

  it('auth login, status and logout: signed in, shown without a secret, then revoked', async () => {
    const s = await setup();
    const { runAuthCommand } = await import('../../electron/cli/auth-command');
    const deps = { signIn: { store: s.store, open: followSignInLink } };
    const login = io();
    expect(await runAuthCommand(['login', '--url', s.server.url], login.io, deps)).toBe(0);
    expect(login.err.join('\n')).toContain('[SIGN-IN] link: ');
    expect(login.out.join('\n')).toMatch(/signed in at http:\/\/127\.0\.0\.1:\d+/);
    const status = io();
    expect(await runAuthCommand(['status', '--url', s.server.url, '--json'], status.io, deps)).toBe(0);
    expect(JSON.parse(status.out[0]!)).toMatchObject({ signedIn: true, issuer: s.as.issuer });
    for (const t of s.as.tokens.keys()) expect(status.out.join('')).not.toContain(t);
    const logout = io();
    expect(await runAuthCommand(['logout', '--url', s.server.url], logout.io, deps)).toBe(0);
    expect(logout.err[0]).toMatch(/revoked the tokens and they were deleted/);
    expect(s.as.tokens.size).toBe(0);
  });
});
