// The approval key does not outlive the app (issue 21, item 8): in a shared
// folder (DATA/approval-share.json) the agent's group can read it, so a key
// left after the app stopped would stay readable there; the private run/
// folder gets the same.
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApprovalServer, type ApprovalHost } from './approval-server';

const host: ApprovalHost = {
  questions: { ask: () => new Promise(() => undefined) },
  observer: {},
  isMuted: () => false,
};

describe.skipIf(process.platform === 'win32')('the approval key when the app stops', () => {
  it('is removed from the shared folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-token-'));
    const folder = join(mkdtempSync(join(tmpdir(), 'cs-token-share-')), 'approval');
    writeFileSync(join(dataDir, 'approval-share.json'), JSON.stringify({ group: String(process.getgid!()), folder }));
    const server = await startApprovalServer({ service: host, dataDir, log: () => undefined });
    const key = join(folder, 'approval.token');
    expect(statSync(key).mode & 0o777).toBe(0o640);
    await server.close();
    expect(existsSync(key)).toBe(false);
    expect(existsSync(join(folder, 'approval.sock'))).toBe(false);
  });

  it('is removed from the private run folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-token-'));
    const server = await startApprovalServer({ service: host, dataDir, log: () => undefined });
    expect(existsSync(server.endpoint.tokenFile)).toBe(true);
    await server.close();
    expect(existsSync(server.endpoint.tokenFile)).toBe(false);
  });
});
