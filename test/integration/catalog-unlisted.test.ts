// A server that declares prompts and resources but cannot list them (a
// hand-written one answering "Method not found") still shows its tools in the
// catalog; the parts it could not list say why, in one cut line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HostService } from '../../electron/core/service/host-service';
import { tsxLoader } from '../gateway/harness';

const RAW = fileURLToPath(new URL('../fixtures/servers/raw-server.ts', import.meta.url));

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function catalogOf(declares: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-catalog-'));
  const service = await HostService.create({
    dataDir,
    openExternal: async () => undefined,
    firstStartServers: {
      raw: { command: process.execPath, args: ['--import', tsxLoader, RAW], env: { RAW_SERVER_DECLARES: declares } },
    },
    connectOnStart: false,
    watchConfig: false,
  });
  service.log = () => undefined;
  closers.push(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return service.invoke('listCatalog', { server: 'raw' });
}

describe('the catalog of a server that cannot list all it declares', () => {
  it('shows the tools, and says why the prompts and resources are missing', async () => {
    const catalog = await catalogOf('prompts,resources');
    expect(catalog.tools.map((t) => t.name)).toContain('plain');
    expect(catalog.prompts).toEqual([]);
    expect(catalog.resources).toEqual([]);
    expect(catalog.unlisted).toEqual({
      prompts: expect.stringMatching(/Method not found/),
      resources: expect.stringMatching(/Method not found/),
    });
  });

  it('says nothing of parts the server does not declare', async () => {
    const catalog = await catalogOf('');
    expect(catalog.tools.length).toBeGreaterThan(0);
    expect(catalog.unlisted).toBeUndefined();
  });
});
