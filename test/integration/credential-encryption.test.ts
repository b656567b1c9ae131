// Tokens encrypted at rest, with the real keychain library (@napi-rs/keyring)
// against a real Secret Service (GNOME Keyring on a private D-Bus session,
// test/fixtures/keychain/secret-service.ts), and the fallback to a plain
// 0600 file where no keychain can be reached. Every store operation runs in
// its own process, as the app, the CLI and the gateway do, with the
// environment deciding which keychain (if any) it reaches.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretServiceMissing, startSecretService, type SecretService } from '../fixtures/keychain/secret-service';
import { cleanupsAfterEach } from '../support/cleanups';

const here = dirname(fileURLToPath(import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const storeOp = join(here, '..', 'fixtures', 'keychain', 'store-op.ts');

const SERVER = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const TOKEN = 'at-secret-access-token-0123456789';
const REFRESH = 'rt-secret-refresh-token-9876543210';
const creds = {
  current: ISSUER,
  issuers: {
    [ISSUER]: {
      tokens: { access_token: TOKEN, refresh_token: REFRESH, token_type: 'Bearer', issuer: ISSUER, savedAt: 1 },
    },
  },
};

/** No keychain: a bus address that leads nowhere (and no autolaunch). */
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/countersign-test-bus' };

type OpResult =
  | { ok: true; value: unknown; protection: { encrypted: boolean; text: string; details?: string } }
  | { ok: false; name: string; message: string };

function run(env: Record<string, string>, ...args: string[]): Promise<OpResult> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('DBUS_') && !k.startsWith('XDG_')),
  ) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, storeOp, ...args], {
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as OpResult);
      } catch {
        reject(new Error(`store-op printed no result; stderr: ${err}`));
      }
    });
  });
}

const cleanups = cleanupsAfterEach();

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-creds-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'credentials');
}

describe('no keychain reachable: a plain 0600 file, and it says so', () => {
  it('keeps the tokens readable only by the user, and the description says "not encrypted" and why', async () => {
    const dir = await dataDir();
    const saved = await run(NO_KEYCHAIN, 'save', dir, SERVER, JSON.stringify(creds));
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.protection.encrypted).toBe(false);
    // The sentence is plain words; the platform's own error and the file are the details.
    expect(saved.protection.text).toBe(
      'not encrypted: no keychain is available, so tokens are kept unencrypted in a file only your user can read',
    );
    const file = join(dir, 'oauth.json');
    expect(saved.protection.details).toMatch(
      /^no OS keychain could be reached: .+; file .+ \(mode 0600 in a 0700 folder\)$/,
    );
    expect(saved.protection.details).toContain(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { version: number };
    expect(doc.version).toBe(1);
    expect(await readFile(file, 'utf8')).toContain(TOKEN);
    const loaded = await run(NO_KEYCHAIN, 'load', dir, SERVER);
    expect(loaded).toMatchObject({ ok: true, value: creds });
    // What `auth status` prints and the Servers view gets.
    const status = await run(NO_KEYCHAIN, 'status', dir, SERVER);
    expect(status).toMatchObject({ ok: true, value: { signedIn: true, storageEncrypted: false } });
    expect(status.ok && (status.value as { storage: string }).storage).toMatch(
      /^not encrypted: no keychain is available/,
    );
    expect(status.ok && (status.value as { storageDetails: string }).storageDetails).toMatch(
      /^no OS keychain could be reached: /,
    );
  });
});

const missing = secretServiceMissing();

describe.skipIf(missing !== undefined)(
  `with a Secret Service (${missing ?? 'GNOME Keyring on a private D-Bus'})`,
  () => {
    let service: SecretService;
    beforeAll(async () => {
      service = await startSecretService();
    });
    afterAll(async () => {
      await service?.close();
    });

    it('seals the file with AES-256-GCM under a key in the keychain; another process opens it', async () => {
      const dir = await dataDir();
      const saved = await run(service.env, 'save', dir, SERVER, JSON.stringify(creds));
      expect(saved).toMatchObject({ ok: true, protection: { encrypted: true } });
      if (!saved.ok) return;
      expect(saved.protection.text).toContain('encrypted (AES-256-GCM) with a key kept in the Secret Service keyring');
      const file = join(dir, 'oauth.json');
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(REFRESH);
      expect(text).not.toContain(ISSUER);
      expect(JSON.parse(text)).toMatchObject({ version: 2, cipher: 'aes-256-gcm' });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // A second process (the CLI after the app, the gateway) reads the same sign-in.
      expect(await run(service.env, 'load', dir, SERVER)).toMatchObject({ ok: true, value: creds });
      const status = await run(service.env, 'status', dir, SERVER);
      expect(status).toMatchObject({ ok: true, value: { signedIn: true, issuer: ISSUER, storageEncrypted: true } });
      expect(JSON.stringify(status)).not.toContain(TOKEN);
    });

    it('encrypts a plain file from before (migration) the first time the keychain is reachable', async () => {
      const dir = await dataDir();
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, 'oauth.json');
      await writeFile(file, JSON.stringify({ version: 1, servers: { [SERVER]: creds } }), { mode: 0o600 });
      const loaded = await run(service.env, 'load', dir, SERVER);
      expect(loaded).toMatchObject({ ok: true, value: creds, protection: { encrypted: true } });
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(JSON.parse(text)).toMatchObject({ version: 2 });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await run(service.env, 'load', dir, SERVER)).toMatchObject({ ok: true, value: creds });
    });

    it('a process without the keychain gets a clear error, and the sealed file is never rewritten in plain text', async () => {
      const dir = await dataDir();
      await run(service.env, 'save', dir, SERVER, JSON.stringify(creds));
      const file = join(dir, 'oauth.json');
      const before = await readFile(file, 'utf8');
      const loaded = await run(NO_KEYCHAIN, 'load', dir, SERVER);
      expect(loaded.ok).toBe(false);
      if (loaded.ok) return;
      expect(loaded.name).toBe('CredentialStoreError');
      expect(loaded.message).toContain(`the sign-ins in ${file} are encrypted with a key kept in the OS keychain`);
      expect(loaded.message).toContain('which this process cannot reach');
      const saved = await run(NO_KEYCHAIN, 'save', dir, 'https://other.example.com/mcp', JSON.stringify(creds));
      expect(saved.ok).toBe(false);
      // The status says why instead of failing: not signed in here, and the reason.
      const status = await run(NO_KEYCHAIN, 'status', dir, SERVER);
      expect(status).toMatchObject({ ok: true, value: { signedIn: false } });
      expect(status.ok && (status.value as { storage: string }).storage).toContain('which this process cannot reach');
      expect(await readFile(file, 'utf8')).toBe(before);
      // And back where the keychain is, everything is still there.
      expect(await run(service.env, 'load', dir, SERVER)).toMatchObject({ ok: true, value: creds });
    });

    it('an altered file does not open: it is set aside, not decrypted, and the store starts empty', async () => {
      const dir = await dataDir();
      await run(service.env, 'save', dir, SERVER, JSON.stringify(creds));
      const file = join(dir, 'oauth.json');
      const sealed = JSON.parse(await readFile(file, 'utf8')) as { data: string };
      const bytes = Buffer.from(sealed.data, 'base64');
      bytes[0] = bytes[0]! ^ 0x01;
      await writeFile(file, JSON.stringify({ ...sealed, data: bytes.toString('base64') }), { mode: 0o600 });
      const loaded = await run(service.env, 'load', dir, SERVER);
      expect(loaded).toMatchObject({ ok: true, value: null });
      const names = await readdir(dir);
      expect(names.some((n) => n.startsWith('oauth.json.undecryptable-'))).toBe(true);
    });
  },
);
