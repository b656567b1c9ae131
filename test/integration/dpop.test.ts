// DPoP (RFC 9449) end to end with real parts: the core's Host against a real
// MCP server that accepts only DPoP-bound tokens with a valid proof, and the
// real test authorization server issuing DPoP-bound tokens, both checking the
// proofs with a real JOSE library and recording them. The assertions read
// the proofs as they arrived on the wire (htm, htu, ath, nonce, jti, jwk).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SignInQuestion } from '../../shared/auth/types';
import { ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { FileCredentialStore, type CredentialStore } from '../../electron/core/auth/credential-store';
import { Host } from '../../electron/core/host';
import { tokenHash } from '../fixtures/oauth/dpop-verifier';
import type { ProtectedServer } from '../fixtures/oauth/protected-server';
import type { TestAs, TestAsOptions } from '../fixtures/oauth/test-authorization-server';
import { cleanupsAfterEach } from '../support/cleanups';
import { followSignInLink, startSignInServers } from '../support/sign-in';

const cleanups = cleanupsAfterEach();

interface Setup {
  as: TestAs;
  server: ProtectedServer;
  store: FileCredentialStore;
  dir: string;
  questions: SignInQuestion[];
  /** A Host as one process of the app, the CLI or the gateway would run it, on the shared store. */
  newHost(store?: CredentialStore): Host;
}

async function setup(
  asOptions: TestAsOptions,
  opts: { rsNonce?: boolean; dpopServer?: boolean; dpopRequired?: boolean } = {},
): Promise<Setup> {
  const { as, server } = await startSignInServers(cleanups, asOptions, (as) =>
    opts.dpopServer === false
      ? {}
      : {
          dpop: {
            jktOf: (t) => as.tokenJkt.get(t),
            requireNonce: opts.rsNonce ?? false,
            required: opts.dpopRequired ?? false,
          },
        },
  );
  const dir = await mkdtemp(join(tmpdir(), 'cs-dpop-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = new FileCredentialStore(join(dir, 'credentials'), { keychain: null });
  const questions: SignInQuestion[] = [];
  const newHost = (hostStore: CredentialStore = store) => {
    const scripted = new ScriptedPrompter([]);
    const host = new Host({
      servers: { notes: { url: server.url } },
      prompter: {
        ask: (q, s) => scripted.ask(q, s),
        signIn: (q) => {
          questions.push(q);
          return Promise.resolve('open');
        },
      },
      auth: { store: hostStore, allowSignIn: true, open: followSignInLink, callbackTimeoutMs: 20_000 },
    });
    cleanups.push(() => host.close());
    return host;
  };
  return { as, server, store, dir, questions, newHost };
}

const callWhoami = (host: Host) => host.call({ server: 'notes', method: 'tools/call', name: 'whoami', arguments: {} });

describe('DPoP-bound tokens (RFC 9449)', () => {
  it('signs the token request and every MCP request, retrying once on each server’s nonce', async () => {
    const s = await setup({ dpop: { requireNonce: true } }, { rsNonce: true });
    const { result } = await callWhoami(s.newHost());
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.questions).toHaveLength(1);

    // Token endpoint: a valid proof for POST <token endpoint>, first without a
    // nonce (answered use_dpop_nonce), then the same request with the nonce.
    const tokenEndpoint = `${s.as.issuer}/token`;
    const proofs = s.as.requests.dpopProofs;
    expect(proofs.map((p) => [p.ok, p.answered, p.error])).toEqual([
      [true, 400, 'use_dpop_nonce'],
      [true, 200, undefined],
    ]);
    for (const p of proofs) {
      if (!p.ok) throw new Error('unreachable');
      expect(p.header.typ).toBe('dpop+jwt');
      expect(p.header.alg).toBe('ES256');
      expect(p.header.jwk).not.toHaveProperty('d');
      expect(p.payload).toMatchObject({ htm: 'POST', htu: tokenEndpoint });
      expect(p.payload.ath).toBeUndefined();
    }
    expect(proofs[0]!.ok && proofs[0]!.payload.nonce).toBeUndefined();
    expect(proofs[1]!.ok && proofs[1]!.payload.nonce).toBe(s.as.dpopNonce);
    const jkt = proofs[1]!.ok ? proofs[1]!.jkt : '';
    // A new jti for the retry: a proof is never sent twice.
    expect(new Set(proofs.map((p) => p.ok && p.payload.jti)).size).toBe(2);

    // MCP server: every authenticated request used the DPoP scheme (never
    // Bearer) with a valid proof for that method and URL, bound to the token
    // (ath) and to the key the token is bound to (jkt).
    const authed = s.server.wire.filter((w) => w.token);
    expect(authed.length).toBeGreaterThanOrEqual(2);
    const accessToken = authed[0]!.token;
    expect(s.as.tokenJkt.get(accessToken)).toBe(jkt);
    for (const w of authed) {
      expect(w.scheme).toBe('DPoP');
      expect(w.proof?.ok).toBe(true);
      if (!w.proof?.ok) continue;
      expect(w.proof.payload).toMatchObject({ htm: w.method, htu: s.server.url, ath: tokenHash(w.token) });
      expect(w.proof.jkt).toBe(jkt);
    }
    const jtis = authed.map((w) => w.proof?.ok && w.proof.payload.jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    // The first proof had no nonce and was challenged; the retry carried the
    // nonce from the challenge; later ones carry the nonce the last answer gave.
    expect(authed[0]!.status).toBe(401);
    expect(authed[0]!.proof?.ok && authed[0]!.proof.payload.nonce).toBeUndefined();
    expect(authed[1]!.proof?.ok && authed[1]!.proof.payload.nonce).toBe(authed[0]!.nonceSent);
    expect(authed.filter((w) => w.status === 401)).toHaveLength(1);
    const posts = authed.filter((w) => w.method === 'POST' && w.status === 200);
    for (const post of posts.slice(1)) {
      const earlier = authed.slice(0, authed.indexOf(post)).map((w) => w.nonceSent);
      expect(earlier).toContain(post.proof?.ok ? post.proof.payload.nonce : 'no valid proof');
    }
  });

  it('keeps the key with the tokens: another process on the same store calls without a sign-in', async () => {
    const s = await setup({ dpop: {} });
    await callWhoami(s.newHost());
    expect(s.questions).toHaveLength(1);
    const kept = JSON.parse(await readFile(join(s.dir, 'credentials', 'oauth.json'), 'utf8')) as {
      servers: Record<
        string,
        { issuers: Record<string, { tokens: { token_type: string }; dpopKey: { thumbprint: string } }> }
      >;
    };
    const entry = kept.servers[s.server.url]!.issuers[s.as.issuer]!;
    expect(entry.tokens.token_type).toBe('DPoP');
    const firstToken = s.server.wire.find((w) => w.token)!.token;
    expect(entry.dpopKey.thumbprint).toBe(s.as.tokenJkt.get(firstToken));

    const before = s.server.wire.length;
    const { result } = await callWhoami(s.newHost());
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.questions).toHaveLength(1); // no second sign-in
    const later = s.server.wire.slice(before).filter((w) => w.token);
    expect(later.length).toBeGreaterThan(0);
    for (const w of later) expect(w.proof?.ok && w.proof.jkt).toBe(entry.dpopKey.thumbprint);
  });

  it('refreshes silently with a proof from the same key (the refresh token is bound to it)', async () => {
    const s = await setup({ dpop: { requireNonce: true } });
    const host = s.newHost();
    await callWhoami(host);
    s.as.tokens.clear(); // the access token expires at the server
    await host.disconnect('notes');
    const { result } = await callWhoami(host);
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.questions).toHaveLength(1);
    expect(s.as.requests.token.map((t) => t.grant_type)).toEqual([
      'authorization_code',
      'authorization_code',
      'refresh_token',
    ]);
    // The nonce from the first exchange is remembered: the refresh is not challenged again.
    const refreshProof = s.as.requests.dpopProofs.at(-1)!;
    expect(refreshProof.answered).toBe(200);
    expect(refreshProof.ok && refreshProof.payload.nonce).toBe(s.as.dpopNonce);
    const jkts = s.as.requests.dpopProofs.map((p) => p.ok && p.jkt);
    expect(new Set(jkts).size).toBe(1);
  });

  it('uses DPoP when the MCP server requires it (RFC 9728) though the authorization server lists no algorithms', async () => {
    const s = await setup({ dpop: { advertise: false } }, { dpopRequired: true });
    const { result } = await callWhoami(s.newHost());
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.as.requests.dpopProofs.map((p) => p.ok && p.header.alg)).toEqual(['ES256']);
    const authed = s.server.wire.filter((w) => w.token);
    expect(authed.length).toBeGreaterThan(0);
    for (const w of authed) expect([w.scheme, w.proof?.ok]).toEqual(['DPoP', true]);
  });

  it('stays with bearer tokens when the authorization server does not offer DPoP', async () => {
    const s = await setup({}, { dpopServer: false });
    const { result } = await callWhoami(s.newHost());
    expect(JSON.stringify(result)).toContain('signed-in call reached the server');
    expect(s.as.requests.dpopProofs).toEqual([]);
    const authed = s.server.wire.filter((w) => w.token);
    expect(authed.length).toBeGreaterThan(0);
    for (const w of authed) {
      expect(w.scheme).toBe('Bearer');
      expect(w.dpopHeader).toBe(false);
    }
    const kept = await readFile(join(s.dir, 'credentials', 'oauth.json'), 'utf8');
    expect(kept).not.toContain('dpopKey');
  });
});
