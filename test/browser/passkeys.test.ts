// Passkey approvals in a real Chromium with the DevTools protocol's virtual
// authenticator (CTAP2, internal, user verification on): a passkey is
// registered and an approval confirmed through the ceremony page, the
// verifier and the offline receipt check accept it, and each attack on it is
// refused with its own sentence. The receipt is then checked by the real CLI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCeremonyServer, type CeremonyServer } from '../../electron/core/passkeys/ceremony-server';
import { PasskeyStore, passkeysFile } from '../../electron/core/passkeys/passkey-store';
import type { ApprovedCall } from '../../electron/core/passkeys/payload';
import { verifyReceipt, type Receipt } from '../../electron/core/passkeys/receipt';
import { BIN } from '../support/cli';
import { launchChromium, type LaunchedBrowser } from './paint-latency';
import { authenticatorFor } from './passkey-pages';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOSTILE_NAME = 'files<img src=x onerror="window.pwned=1">\u001b]0;owned\u0007\u202e';
const call: ApprovedCall = {
  server: { name: HOSTILE_NAME, command: 'node server.mjs --root /srv' },
  tool: 'delete_file',
  arguments: { path: '/srv/report.txt' },
  question: { message: 'Delete report.txt?', schema: { type: 'object', properties: {} } },
  answer: { action: 'accept', content: {} },
};

let launched: LaunchedBrowser;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;
let dataDir: string;
let store: PasskeyStore;
let server: CeremonyServer;
// The verifier's clock; set once the browser is up, so a slow launch cannot age the first payloads.
let clock = 0;
let goodReceipt: Receipt;

/** Open a ceremony page, press its button and wait until it ended; the state it ended in. */
async function runCeremony(url: string): Promise<string> {
  await page.goto(url);
  await page.locator('#ceremony[data-state="ready"]').waitFor();
  await page.click('#confirm');
  const ended = page.locator('#ceremony:not([data-state="ready"]):not([data-state="working"])');
  await ended.waitFor();
  return (await ended.getAttribute('data-state')) ?? '';
}

/** One approval through the ceremony page of `on`: the payload issued and the assertion the page posted. */
async function approve(on: CeremonyServer = server) {
  const payload = on.verifier.issue(call);
  const ceremony = on.approve(payload);
  expect(await runCeremony(ceremony.url)).toBe('done');
  return { payload, response: await ceremony.result };
}

function withClientData(response: AuthenticationResponseJSON, change: (data: Record<string, unknown>) => void) {
  const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(data);
  const clientDataJSON = Buffer.from(JSON.stringify(data)).toString('base64url');
  return { ...response, response: { ...response.response, clientDataJSON } };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cs-passkeys-'));
  store = await PasskeyStore.open(dataDir);
  server = await startCeremonyServer({ store, now: () => clock });
  launched = await launchChromium();
  clock = Date.now();
  page = await launched.browser.newPage();
  ({ cdp, authenticatorId } = await authenticatorFor(page));
});

afterAll(async () => {
  await launched?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('passkey approvals through the ceremony page', () => {
  it('registers a passkey: only its public key is kept, 0600 in a 0700 folder', async () => {
    const ceremony = await server.register('laptop');
    expect(ceremony.url).toMatch(new RegExp(`^http://localhost:${server.port}/ceremony/`));
    expect(await runCeremony(ceremony.url)).toBe('done');
    const passkey = await ceremony.result;
    expect(passkey.name).toBe('laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => Buffer.from(c.credentialId, 'base64').toString('base64url'))).toEqual([passkey.id]);
    const reopened = await PasskeyStore.open(dataDir);
    expect(reopened.list().map((p) => p.id)).toEqual([passkey.id]);
    expect(statSync(passkeysFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'passkeys')).mode & 0o777).toBe(0o700);
  });

  it('shows only the payload, as text, and an approval is accepted live and offline', async () => {
    const payload = server.verifier.issue(call);
    const ceremony = server.approve(payload);
    await page.goto(ceremony.url);
    await page.locator('#ceremony[data-state="ready"]').waitFor();
    const shown = await page.locator('dd').allTextContents();
    expect(shown).toEqual([
      HOSTILE_NAME,
      'node server.mjs --root /srv',
      'delete_file',
      payload.argumentsHash,
      payload.questionHash,
      payload.answerHash,
      payload.nonce,
      payload.issuedAt,
      payload.expiresAt,
      payload.id,
      payload.origin,
      payload.format,
    ]);
    expect(await page.locator('dt').allTextContents()).toEqual([
      'Server',
      'Command',
      'Tool',
      'Arguments (SHA-256)',
      'Question (SHA-256)',
      'Your answer (SHA-256)',
      'Nonce',
      'Issued',
      'Expires',
      'Approval id',
      'Confirmed at',
      'Format',
    ]);
    expect(await page.locator('#fields img').count()).toBe(0);
    await page.click('#confirm');
    await page.locator('#ceremony[data-state="done"]').waitFor();
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    const receipt = await server.verifier.verify(payload, await ceremony.result, call);
    expect(receipt.payload).toEqual(payload);
    expect((await verifyReceipt(receipt, store.list())).name).toBe('laptop');
    goodReceipt = receipt;

    // The same assertion again: a replay.
    await expect(server.verifier.verify(payload, await ceremony.result, call)).rejects.toThrow(
      `refused: the approval ${payload.id} was used already; an assertion is accepted once (this is a replay)`,
    );
  });

  it('the verifier recipe of docs/passkeys.md accepts the receipt, once, and only for its call', async () => {
    const doc = readFileSync(join(REPO, 'docs', 'passkeys.md'), 'utf8');
    const recipe = /## Verifying a receipt on your server[\s\S]*?```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(recipe).toContain('export async function checkReceipt(');
    // Inside the repository, so that its imports resolve to the pinned packages.
    const file = join(REPO, '.cache', `passkeys-recipe-${process.pid}.ts`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, recipe!);
    try {
      const { checkReceipt } = (await import(pathToFileURL(file).href)) as {
        checkReceipt(
          r: Receipt,
          c: { name: string; arguments: unknown },
          key: string,
          seen: Set<string>,
        ): Promise<void>;
      };
      const key = store.list()[0]!.publicKey;
      const seen = new Set<string>();
      const thisCall = { name: 'delete_file', arguments: call.arguments };
      await expect(checkReceipt(goodReceipt, { ...thisCall, arguments: { path: '/' } }, key, seen)).rejects.toThrow(
        'the receipt approves another call',
      );
      const forged = { ...goodReceipt, payload: { ...goodReceipt.payload, server: { name: 'x', command: 'y' } } };
      await expect(checkReceipt(forged, thisCall, key, seen)).rejects.toThrow();
      await expect(checkReceipt(goodReceipt, thisCall, key, seen)).resolves.toBeUndefined();
      await expect(checkReceipt(goodReceipt, thisCall, key, seen)).rejects.toThrow('this approval was used already');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('refuses changed arguments', async () => {
    const { payload, response } = await approve();
    await expect(
      server.verifier.verify(payload, response, { ...call, arguments: { path: '/srv/everything' } }),
    ).rejects.toThrow(/^refused: the arguments of the call differ from the ones the person approved/);
    await expect(
      server.verifier.verify(payload, response, { ...call, answer: { action: 'accept', content: { all: true } } }),
    ).rejects.toThrow(/^refused: the answer differs from the one the person approved \(answerHash sha256:/);
    await expect(
      server.verifier.verify(payload, response, { ...call, server: { name: HOSTILE_NAME, command: 'node other.mjs' } }),
    ).rejects.toThrow(/^refused: the call goes to "delete_file" of .* \("node other\.mjs"\), but the person approved/);
    // The refusal was about the arguments alone: the unchanged call is accepted.
    await expect(server.verifier.verify(payload, response, call)).resolves.toMatchObject({ payload });
  });

  it('refuses a payload whose text differs from what was signed, live and offline', async () => {
    const { payload, response } = await approve();
    const shownOtherwise = { ...payload, tool: 'read_file' };
    await expect(server.verifier.verify(shownOtherwise, response, { ...call, tool: 'read_file' })).rejects.toThrow(
      /^refused: the payload differs from the one issued for approval .* \(tool changed\)/,
    );
    const receipt = await server.verifier.verify(payload, response, call);
    await expect(verifyReceipt({ ...receipt, payload: shownOtherwise }, store.list())).rejects.toThrow(
      /^refused: the passkey signed another payload than this one/,
    );
  });

  it('refuses an expired challenge', async () => {
    const { payload, response } = await approve();
    clock += 61_000;
    try {
      await expect(server.verifier.verify(payload, response, call)).rejects.toThrow(
        `refused: the approval expired at ${payload.expiresAt} (60 s after it was issued), 1 s before it was checked`,
      );
    } finally {
      clock -= 61_000;
    }
  });

  it('refuses an assertion made without user verification', async () => {
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    try {
      // The page asks for verification, so the browser refuses outright and nothing is posted.
      const payload = server.verifier.issue(call);
      expect(await runCeremony(server.approve(payload).url)).toBe('failed');
      // A page that asks for less gets an assertion without the flag; the verifier refuses it.
      const other = server.verifier.issue(call);
      await page.goto(server.approve(other).url);
      await page.locator('#ceremony[data-state="ready"]').waitFor();
      const response = await page.evaluate(
        async (ids: string[]) => {
          const token = location.pathname.split('/')[2];
          const data = (await (await fetch(`/ceremony/${token}/data`)).json()) as { payloadText: string };
          const challenge = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(data.payloadText));
          const b64 = (b: ArrayBuffer) =>
            btoa(String.fromCharCode(...new Uint8Array(b)))
              .replace(/\+/g, '-')
              .replace(/\//g, '_')
              .replace(/=+$/, '');
          const d = (s: string) =>
            Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
          const cred = (await navigator.credentials.get({
            publicKey: {
              challenge,
              rpId: 'localhost',
              userVerification: 'discouraged',
              allowCredentials: ids.map((id) => ({ type: 'public-key' as const, id: d(id) })),
            },
          })) as PublicKeyCredential;
          const r = cred.response as AuthenticatorAssertionResponse;
          return {
            id: cred.id,
            rawId: b64(cred.rawId),
            type: 'public-key' as const,
            clientExtensionResults: {},
            response: {
              authenticatorData: b64(r.authenticatorData),
              clientDataJSON: b64(r.clientDataJSON),
              signature: b64(r.signature),
            },
          };
        },
        store.list().map((p) => p.id),
      );
      await expect(server.verifier.verify(other, response, call)).rejects.toThrow(
        /^refused: the authenticator did not verify the person \(no PIN, fingerprint or face: its user-verified flag is off\)/,
      );
    } finally {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    }
  });

  it('refuses an assertion made at another port of localhost', async () => {
    const other = await startCeremonyServer({ store, now: () => clock });
    try {
      const { payload, response } = await approve(other);
      await expect(server.verifier.verify(payload, response, call)).rejects.toThrow(
        `refused: the passkey was used at "http://localhost:${other.port}", not at the ceremony page ` +
          `http://localhost:${server.port} (the port counts: every local app shares localhost)`,
      );
      // The same assertion is good where it was made: the port alone was wrong.
      await expect(other.verifier.verify(payload, response, call)).resolves.toMatchObject({ payload });
    } finally {
      await other.close();
    }
  });

  it('refuses 127.0.0.1: the page is not served there, the browser will not sign there, the verifier refuses it', async () => {
    const payload = server.verifier.issue(call);
    const ceremony = server.approve(payload);
    const atIp = ceremony.url.replace('//localhost:', '//127.0.0.1:');
    const res = await page.goto(atIp);
    expect(res?.status()).toBe(421);
    expect(await page.locator('body').textContent()).toContain(`This page is valid only at ${server.origin}`);
    expect(await page.locator('#ceremony').count()).toBe(0);
    const browserSays = await page.evaluate(() =>
      navigator.credentials
        .get({ publicKey: { challenge: new Uint8Array(32), rpId: 'localhost', userVerification: 'required' } })
        .then(
          () => 'signed',
          (e: Error) => e.name,
        ),
    );
    expect(browserSays).toBe('SecurityError');

    const { payload: good, response } = await approve();
    const moved = withClientData(response, (data) => (data.origin = `http://127.0.0.1:${server.port}`));
    await expect(server.verifier.verify(good, moved, call)).rejects.toThrow(
      `refused: the passkey was used at "http://127.0.0.1:${server.port}", an IP address, which is never a ` +
        `WebAuthn relying party; approvals are valid only at ${server.origin}`,
    );
  });

  it('countersign receipt verify, as a real process: a good receipt, then a tampered one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-receipt-'));
    try {
      const good = join(dir, 'good.json');
      const tampered = join(dir, 'tampered.json');
      writeFileSync(good, JSON.stringify(goodReceipt));
      writeFileSync(
        tampered,
        JSON.stringify({ ...goodReceipt, payload: { ...goodReceipt.payload, tool: 'read_file' } }),
      );
      const env = { ...process.env, COUNTERSIGN_DATA_DIR: dataDir };
      const ok = spawnSync(process.execPath, [BIN, 'receipt', 'verify', good], { encoding: 'utf8', env });
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/^valid: signed by the passkey "laptop" \(credential id [\w-]+\)\n/);
      expect(ok.stdout).toContain('  tool:      delete_file\n');
      expect(ok.stdout).toContain('what it does not prove:\n');
      // The server's name is the file's text: its escape sequence and bidi override arrive escaped.
      expect(ok.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
      expect(ok.stdout).toContain('\\x1b]0;owned\\x07\\u202e');

      const bad = spawnSync(process.execPath, [BIN, 'receipt', 'verify', tampered], { encoding: 'utf8', env });
      expect(bad.status).toBe(1);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/^countersign: error: refused: the passkey signed another payload than this one/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a revoked key', async () => {
    const { payload, response } = await approve();
    const [passkey] = store.list();
    await store.revoke(passkey!.id, clock);
    await expect(server.verifier.verify(payload, response, call)).rejects.toThrow(
      `refused: the passkey "laptop" was revoked at ${new Date(clock).toISOString()}, and nothing it signs is accepted`,
    );
    await expect(verifyReceipt(goodReceipt, store.list())).rejects.toThrow(
      /^refused: the passkey "laptop" was revoked at/,
    );
    await expect(verifyReceipt(goodReceipt, [])).rejects.toThrow(
      `refused: the assertion was made with credential id ${passkey!.id}, which no registered passkey has`,
    );
  });
});
