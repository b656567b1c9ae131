// A HostService for a test: its own temporary data folder, the given servers
// written there on first start, nothing connected or watched until the test
// asks, no log output and no browser. Closed and its folder removed after the
// test, through the file's cleanup list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerEntry } from '../../electron/core/config/server-config';
import { HostService } from '../../electron/core/service/host-service';
import type { Cleanup } from './cleanups';

export async function quietService(cleanups: Cleanup[], servers: Record<string, ServerEntry>): Promise<HostService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-service-'));
  const service = await HostService.create({
    dataDir,
    openExternal: async () => undefined,
    firstStartServers: servers,
    connectOnStart: false,
    watchConfig: false,
  });
  service.log = () => undefined;
  cleanups.push(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return service;
}
