// The catalogue across servers: the naming scheme under collisions (with the
// right server behind every name), resources two servers share, and list
// changes reaching the agent, from a server or from an edited servers.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readWireLog } from '../fixtures/spawn-fixture';
import { eventually, makeDataDir, startAgent, startApp, textOf, tsxLoader, type Agent, type App } from './harness';

const changingServer = {
  command: process.execPath,
  args: ['--import', tsxLoader, join(dirname(fileURLToPath(import.meta.url)), 'changing-server.ts')],
};

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('names across servers', () => {
  it('servers whose names collide once sanitised get stable hashed names, each routed to its own server', async () => {
    const { dataDir, wireLogs } = makeDataDir({ 'fx.1': 'modern', fx_1: 'modern' });
    const app: App = await startApp(dataDir);
    const agent = await startAgent(dataDir);
    cleanups.push(
      () => app.close(),
      () => agent.close(),
    );
    const names = (await agent.client.listTools()).tools.map((t) => t.name).filter((n) => n.includes('__echo'));
    expect(names).toHaveLength(2);
    for (const n of names) expect(n).toMatch(/^fx_1__echo_[0-9a-f]{6}$/);
    // The same names on a second listing: nothing depends on order or timing.
    expect((await agent.client.listTools()).tools.map((t) => t.name).filter((n) => n.includes('__echo'))).toEqual(
      names,
    );
    for (const n of names) expect(textOf(await agent.client.callTool({ name: n, arguments: { text: n } }))).toBe(n);
    const echoed = (log: string) =>
      readWireLog(log)
        .filter((e) => e.dir === 'in' && e.msg?.params?.name === 'echo')
        .map((e) => e.msg.params.arguments.text);
    expect(echoed(wireLogs['fx.1']!)).toHaveLength(1);
    expect(echoed(wireLogs.fx_1!)).toHaveLength(1);
    expect(new Set([...echoed(wireLogs['fx.1']!), ...echoed(wireLogs.fx_1!)])).toEqual(new Set(names));

    // A URI both servers list is exposed per server in the explicit form; the bare URI is ambiguous.
    const uris = (await agent.client.listResources()).resources.map((r) => r.uri).sort();
    expect(uris).toEqual([
      'countersign://fx.1/fixture%3A%2F%2Fsecret-note',
      'countersign://fx_1/fixture%3A%2F%2Fsecret-note',
    ]);
    await expect(agent.client.readResource({ uri: 'fixture://secret-note' })).rejects.toThrow(
      /matches servers "fx.1" and "fx_1"/,
    );
    app.reply({ action: 'accept' });
    const note = await agent.client.readResource({ uri: uris[1]! });
    expect(JSON.stringify(note.contents)).toContain('the retro moved to Friday');
    expect(app.shown.at(-1)!.origin.server).toBe('fx_1');
    expect(
      await agent.client.callTool({ name: 'nope__nothing', arguments: {} }).catch((e: Error) => e.message),
    ).toMatch(/Unknown tool: nope__nothing/);
  });
});

/** Waits until the agent is told, in a message after `from`, that the tool list changed. */
const toolsChanged = (agent: Agent, from: number, what = 'tools/list_changed') =>
  eventually(
    () => agent.received.slice(from).some((m) => m.method === 'notifications/tools/list_changed'),
    5_000,
    what,
  );

describe('list changes', () => {
  it('a server adding a tool: the agent is told and sees it', async () => {
    const { dataDir } = makeDataDir({ changing: changingServer });
    const agent = await startAgent(dataDir);
    cleanups.push(() => agent.close());
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual(['changing__add_tool']);
    const from = agent.received.length;
    expect(textOf(await agent.client.callTool({ name: 'changing__add_tool', arguments: {} }))).toBe('added extra_1');
    await toolsChanged(agent, from);
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual([
      'changing__add_tool',
      'changing__extra_1',
    ]);
    expect(textOf(await agent.client.callTool({ name: 'changing__extra_1', arguments: {} }))).toBe('extra_1 ran');
  });

  it('a server added to servers.json (in the app, say): the agent is told and sees its tools', async () => {
    const { dataDir } = makeDataDir({ changing: changingServer });
    const agent = await startAgent(dataDir, { era: 'legacy' });
    cleanups.push(() => agent.close());
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual(['changing__add_tool']);
    const from = agent.received.length;
    const file = join(dataDir, 'servers.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.mcpServers.second = changingServer;
    writeFileSync(file, JSON.stringify(doc));
    await toolsChanged(agent, from);
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual([
      'changing__add_tool',
      'second__add_tool',
    ]);
    delete doc.mcpServers.changing;
    const again = agent.received.length;
    writeFileSync(file, JSON.stringify(doc));
    await toolsChanged(agent, again, 'second tools/list_changed');
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual(['second__add_tool']);
  });
});
