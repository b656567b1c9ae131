// Issue 24 item 1: the ui extension is declared only by a host whose front end
// renders apps (the web shell's and the desktop app's service), never by the
// CLI's: the apps fixture's declared_ui tool reports what the server saw.
// Without a front end that frames apps, the catalog names no app and openApp says so instead of serving.
import { describe, expect, it } from 'vitest';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { Host } from '../../electron/core/host';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { cleanupsAfterEach } from '../support/cleanups';
import { quietService } from '../support/quiet-service';

const apps = fixtureCommand('apps');
const cleanups = cleanupsAfterEach();

function textOf(result: Record<string, unknown>): string {
  return (result.content as Array<{ text: string }>)[0]!.text;
}

function newHost(rendersApps: boolean): Host {
  const host = new Host({
    servers: { apps: { command: apps.command, args: apps.args } },
    prompter: new ScriptedPrompter([]),
    ...(rendersApps ? { rendersApps } : {}),
  });
  cleanups.push(() => host.close());
  return host;
}

describe('the MCP Apps capability', () => {
  it('is declared by a host that renders apps', async () => {
    const { result } = await newHost(true).call({ server: 'apps', method: 'tools/call', name: 'declared_ui' });
    expect(JSON.parse(textOf(result))).toEqual({ mimeTypes: [RESOURCE_MIME_TYPE], elicitation: {} });
  });

  it('is not declared by the CLI’s host', async () => {
    const { result } = await newHost(false).call({ server: 'apps', method: 'tools/call', name: 'declared_ui' });
    expect(JSON.parse(textOf(result))).toBeNull();
  });

  it('opens no app where no front end can frame one', async () => {
    const service = await quietService(cleanups, { apps: { command: apps.command, args: apps.args } });
    await expect(service.invoke('openApp', { server: 'apps', tool: 'show_greeting', callId: 'c1' })).rejects.toThrow(
      /cannot show MCP Apps/,
    );
    // The Tools view is not told of apps it could not show.
    const catalog = await service.invoke('listCatalog', { server: 'apps' });
    expect(catalog.tools.find((t) => t.name === 'show_greeting')?.app).toBeUndefined();
    // Once a front end frames apps, the tool says it has one; a tool without an app does not.
    service.apps.origin = { documentBase: 'http://127.0.0.1:1/app/', frameAncestor: 'http://127.0.0.1:2' };
    const framed = await service.invoke('listCatalog', { server: 'apps' });
    expect(framed.tools.find((t) => t.name === 'show_greeting')?.app).toBe(true);
    expect(framed.tools.find((t) => t.name === 'confirm_step')?.app).toBeUndefined();
  });
});
