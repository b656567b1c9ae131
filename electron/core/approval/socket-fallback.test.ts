// The fallback socket folder of a deep data folder (issue 9, item 13): its
// name was derived from the data folder alone, so another user could create
// /tmp/countersign-<uid>-<hash> first and the app refused to start ("belongs
// to another user"). Now the name is keyed by a secret in the private run/.
import { createHash } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalEndpoint } from './endpoint';
import { startApprovalServer } from './approval-server';
import { HostService } from '../service/host-service';

let root: string;
let deep: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cs-sockfb-'));
  deep = join(root, 'd'.repeat(110));
});
afterEach(() => {
  const dir = dirname(approvalEndpoint(deep).socketPath);
  rmSync(root, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** The name the old code chose: anyone who knows the folder's path could compute it. */
const predictable = (dataDir: string) =>
  join(
    tmpdir(),
    `countersign-${process.getuid?.()}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`,
  );

describe.skipIf(process.platform === 'win32')('the fallback socket folder', () => {
  it('is not derivable from the data folder path, and is the same for the app and every gateway', () => {
    const e = approvalEndpoint(deep);
    expect(e.socketPath.startsWith(tmpdir())).toBe(true);
    expect(Buffer.byteLength(e.socketPath)).toBeLessThanOrEqual(100);
    expect(dirname(e.socketPath)).not.toBe(predictable(deep));
    expect(approvalEndpoint(deep)).toEqual(e);
    // The key is private: 0600 in the 0700 run folder.
    expect(statSync(join(deep, 'run', 'socket-dir.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(deep, 'run')).mode & 0o777).toBe(0o700);
    // Another data folder, another key, another folder.
    expect(approvalEndpoint(`${deep}x`).socketPath).not.toBe(e.socketPath);
    rmSync(dirname(approvalEndpoint(`${deep}x`).socketPath), { recursive: true, force: true });
  });

  it.runIf(process.getuid?.() === 0)(
    'another user squatting the old predictable folder does not keep the app from starting',
    async () => {
      const squat = predictable(deep);
      mkdirSync(squat, { recursive: true, mode: 0o755 });
      chownSync(squat, 65534, 65534);
      const service = await HostService.create({
        dataDir: deep,
        connectOnStart: false,
        openExternal: async () => undefined,
      });
      try {
        const server = await startApprovalServer({ service, dataDir: deep, app: 'web', log: () => undefined });
        expect(statSync(dirname(server.endpoint.socketPath)).uid).toBe(0);
        expect(statSync(dirname(server.endpoint.socketPath)).mode & 0o777).toBe(0o700);
        await server.close();
      } finally {
        await service.close();
        rmSync(squat, { recursive: true, force: true });
      }
    },
  );
});
