import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PasskeyStore, passkeysFile } from './passkey-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cs-passkey-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const key = { name: 'usb key', id: 'AAEC', publicKey: 'pQECAyYgASFY', counter: 0, created: '2026-12-07T06:00:00.000Z' };

describe('the passkey store', () => {
  it('keeps passkeys across opens, 0600 in a 0700 folder, and revokes by credential id', async () => {
    const store = await PasskeyStore.open(dir);
    await store.add(key);
    await expect(store.add(key)).rejects.toThrow('a passkey with credential id AAEC is registered already');
    expect(statSync(passkeysFile(dir)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'passkeys')).mode & 0o777).toBe(0o700);

    await store.revoke('AAEC', Date.UTC(2026, 11, 7, 7));
    await expect(store.revoke('nope')).rejects.toThrow('no passkey with credential id nope is registered');
    const again = await PasskeyStore.open(dir);
    expect(again.list()).toEqual([{ ...key, revoked: '2026-12-07T07:00:00.000Z' }]);
  });

  it('tightens a loose store and refuses a file that is not one, naming it', async () => {
    mkdirSync(join(dir, 'passkeys'), { mode: 0o755 });
    chmodSync(join(dir, 'passkeys'), 0o755);
    writeFileSync(passkeysFile(dir), JSON.stringify({ version: 1, passkeys: [key] }), { mode: 0o644 });
    expect((await PasskeyStore.open(dir)).list()).toEqual([key]);
    expect(statSync(passkeysFile(dir)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'passkeys')).mode & 0o777).toBe(0o700);

    writeFileSync(passkeysFile(dir), JSON.stringify({ version: 1, passkeys: [{ name: 'no key' }] }));
    await expect(PasskeyStore.open(dir)).rejects.toThrow(`${passkeysFile(dir)} is not a passkey store (version 1)`);
    writeFileSync(passkeysFile(dir), '{');
    await expect(PasskeyStore.open(dir)).rejects.toThrow(`${passkeysFile(dir)} is not JSON`);
  });
});
