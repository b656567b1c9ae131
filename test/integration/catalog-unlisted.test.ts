// A server that declares prompts and resources but cannot list them (a
// hand-written one answering "Method not found") still shows its tools in the
// catalog; the parts it could not list say why, in one cut line.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsxLoader } from '../gateway/harness';
import { cleanupsAfterEach } from '../support/cleanups';
import { quietService } from '../support/quiet-service';

const RAW = fileURLToPath(new URL('../fixtures/servers/raw-server.ts', import.meta.url));

const cleanups = cleanupsAfterEach();

async function catalogOf(declares: string) {
  const service = await quietService(cleanups, {
    raw: { command: process.execPath, args: ['--import', tsxLoader, RAW], env: { RAW_SERVER_DECLARES: declares } },
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
