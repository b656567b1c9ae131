// The gateway's ownership check of a shared approval folder, on real folders,
// symlinks and a real socket (the approver here is this test's own user).
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApproverAppNotRunning, checkApproverFolder, type Approver } from './shared-folder';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const me: Approver = { name: 'me', uid: process.getuid?.() ?? 0 };

async function servingFolder(parentMode = 0o755): Promise<{ parent: string; folder: string }> {
  const parent = mkdtempSync(join(tmpdir(), 'cs-share-check-'));
  chmodSync(parent, parentMode);
  const folder = join(parent, 'approval');
  mkdirSync(folder, { mode: 0o750 });
  chmodSync(folder, 0o750);
  writeFileSync(join(folder, 'approval.token'), 'key\n', { mode: 0o640 });
  const server = createServer();
  await new Promise<void>((r) => server.listen(join(folder, 'approval.sock'), () => r()));
  servers.push(server);
  return { parent, folder };
}

describe.skipIf(process.platform === 'win32')('checkApproverFolder', () => {
  it('passes a folder only the approver can write, with the approver’s socket and key', async () => {
    const { folder } = await servingFolder();
    await expect(checkApproverFolder(folder, me)).resolves.toBeUndefined();
  });

  it('refuses a group- or world-writable folder, or one under a folder others can write', async () => {
    const { folder } = await servingFolder();
    chmodSync(folder, 0o770);
    await expect(checkApproverFolder(folder, me)).rejects.toThrow(/approval is writable by its group \(mode 770\)/);
    const loose = await servingFolder(0o777);
    await expect(checkApproverFolder(loose.folder, me)).rejects.toThrow(
      `${loose.parent} is writable by every user (mode 777)`,
    );
    // Sticky above the folder (as /tmp is) is fine: others cannot rename or remove what is not theirs.
    const sticky = await servingFolder(0o1777);
    await expect(checkApproverFolder(sticky.folder, me)).resolves.toBeUndefined();
  });

  it('refuses a symlink anywhere on the way, and another user’s folder', async () => {
    const { parent, folder } = await servingFolder();
    const link = join(parent, 'link');
    symlinkSync(folder, link);
    await expect(checkApproverFolder(link, me)).rejects.toThrow(`${link} is a symlink`);
    await expect(checkApproverFolder(folder, { name: 'alice', uid: me.uid + 4242 })).rejects.toThrow(
      /belongs to uid \d+, not to alice/,
    );
  });

  it('a folder the app has not served in yet is "not running", not an error', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cs-share-check-'));
    chmodSync(parent, 0o755);
    const folder = join(parent, 'approval');
    mkdirSync(folder, { mode: 0o750 });
    chmodSync(folder, 0o750);
    await expect(checkApproverFolder(folder, me)).rejects.toBeInstanceOf(ApproverAppNotRunning);
    writeFileSync(join(folder, 'approval.sock'), 'not a socket');
    await expect(checkApproverFolder(folder, me)).rejects.toThrow('is not a socket');
  });
});
