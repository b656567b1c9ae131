import { mkdtempSync, statSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalEndpoint, ensurePrivateDir, readTokenFile, writeTokenFile } from './endpoint';

describe('approvalEndpoint', () => {
  it('is derived from the data folder alone: a socket in its private run folder', () => {
    const e = approvalEndpoint('/home/ada/.config/countersign', 'linux');
    expect(e).toEqual({
      runDir: '/home/ada/.config/countersign/run',
      tokenFile: '/home/ada/.config/countersign/run/approval.token',
      socketPath: '/home/ada/.config/countersign/run/approval.sock',
    });
    expect(approvalEndpoint('/home/ada/.config/countersign', 'linux')).toEqual(e);
  });

  it('falls back to a short per-folder path when the socket path would be too long for sun_path', () => {
    const deep = join(mkdtempSync(join(tmpdir(), 'cs-ep-')), 'd'.repeat(120));
    const e = approvalEndpoint(deep, 'linux');
    expect(Buffer.byteLength(e.socketPath)).toBeLessThanOrEqual(100);
    expect(e.socketPath).toMatch(/countersign-.+-[0-9a-f]{16}\/approval\.sock$/);
    expect(approvalEndpoint(`${deep}x`, 'linux').socketPath).not.toBe(e.socketPath);
    expect(e.tokenFile).toBe(`${deep}/run/approval.token`);
  });

  it('uses a named pipe per user and folder on Windows', () => {
    const e = approvalEndpoint('C:\\Users\\ada\\AppData\\Roaming\\Countersign', 'win32');
    expect(e.socketPath).toMatch(/^\\\\\.\\pipe\\countersign-approval-[0-9a-f]{16}$/);
    expect(approvalEndpoint('C:\\other', 'win32').socketPath).not.toBe(e.socketPath);
  });
});

describe.skipIf(process.platform === 'win32')('private files', () => {
  it('makes the run folder owner-only, repairing loose permissions', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cs-ep-')), 'run');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    await ensurePrivateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('writes tokens 0600 and reads them back', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cs-ep-')), 'token');
    expect(await readTokenFile(file)).toBeUndefined();
    await writeTokenFile(file, 'secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await readTokenFile(file)).toBe('secret');
  });
});
