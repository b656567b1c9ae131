// Hand edits to servers.json are kept (issue 9, item 8). Before, the app read
// the file once at start, ignored edits made while it ran, and the next "Add
// server" wrote its own copy over them. Real files, a real watcher, editors
// that save in place and by renaming a temp file over the original, and two
// writers that have not seen each other's changes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvents, ServerView } from '../../shared/host-api/contract';
import { ServersFile } from '../../electron/core/config/servers-file';
import type { ServerListChange } from '../../electron/core/config/server-list';
import { messageOf } from '../../electron/core/host-error';
import { HostService } from '../../electron/core/service/host-service';

// A server that never connects (it exits at once): these tests are about the list, not connections.
const quiet = (tag: string) => ({ command: process.execPath, args: ['-e', '', tag] });

function fresh(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cs-hand-edits-'));
  return { dir, file: join(dir, 'servers.json') };
}

/** Save the way vim, VS Code and most editors with "atomic save" do: a temp file renamed over the original. */
function saveByRename(file: string, text: string): void {
  const tmp = `${file}.editor~`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function readDoc(file: string): { mcpServers: Record<string, Record<string, unknown>> } & Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8'));
}

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function openService(dir: string): Promise<HostService> {
  const svc = await HostService.create({
    dataDir: dir,
    openExternal: async () => undefined,
    firstStartServers: { kimai: quiet('kimai') },
    connectOnStart: false,
  });
  svc.log = () => undefined;
  closers.push(() => svc.close());
  return svc;
}

function nextEvent<E extends keyof HostEvents>(
  svc: HostService,
  event: E,
  where: (p: HostEvents[E]) => boolean,
): Promise<HostEvents[E]> {
  return new Promise((resolve) => {
    const off = svc.on(event, (p) => {
      if (where(p)) {
        off();
        resolve(p);
      }
    });
  });
}

const names = (views: ServerView[]) => views.map((v) => v.name).sort();

describe('the app keeps hand edits of servers.json', () => {
  it('loads an edit saved by renaming a temp file over servers.json, and the Servers view follows', async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    const doc = readDoc(file);
    doc.mcpServers.byhand = quiet('byhand');
    const shown = nextEvent(svc, 'serversChanged', (views) => views.some((v) => v.name === 'byhand'));
    saveByRename(file, JSON.stringify(doc, null, 2));
    expect(names(await shown)).toEqual(['byhand', 'kimai']);
    expect(names(await svc.invoke('listServers', {}))).toEqual(['byhand', 'kimai']);
  });

  it('"Add server" after a hand edit keeps the edit, byte for byte in the other entries', async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    // Keys this host ignores ("disabled", a top-level "$comment") must survive a write too.
    const hand = { command: 'uvx', args: ['mcp-server-git'], disabled: true };
    const doc = { $comment: 'mine', mcpServers: { ...readDoc(file).mcpServers, git: hand } };
    writeFileSync(file, JSON.stringify(doc, null, 2));
    // Straight away, before the watcher has had its quiet time: the write must read the file first.
    await svc.invoke('addServer', { name: 'added', entry: quiet('added') });
    const after = readDoc(file);
    expect(Object.keys(after.mcpServers).sort()).toEqual(['added', 'git', 'kimai']);
    expect(after.mcpServers.git).toEqual(hand);
    expect(after.$comment).toBe('mine');
    expect(names(await svc.invoke('listServers', {}))).toEqual(['added', 'git', 'kimai']);
  });

  it("saving a server in the app keeps what the form cannot show: its sign-in settings and other hosts' keys", async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    const oauth = { clientId: 'countersign-desktop', scopes: ['read'] };
    const remote = { url: 'https://mcp.example.com/mcp', oauth, disabled: false, headers: { 'X-Old': '1' } };
    writeFileSync(file, JSON.stringify({ mcpServers: { ...readDoc(file).mcpServers, remote } }));
    await svc.reloadServers();
    await svc.invoke('updateServer', { name: 'remote', entry: { url: 'https://mcp.example.com/v2/mcp' } });
    // The form's fields are what it sent (the header it removed is gone); the rest stays.
    expect(readDoc(file).mcpServers.remote).toEqual({ url: 'https://mcp.example.com/v2/mcp', oauth, disabled: false });
    // Turned into a stdio server, the sign-in settings go (they would not be valid), the other key stays.
    await svc.invoke('updateServer', { name: 'remote', entry: quiet('now-stdio') });
    expect(readDoc(file).mcpServers.remote).toEqual({ ...quiet('now-stdio'), disabled: false });
  });

  it('"Remove" after a hand edit removes only that server', async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { ...readDoc(file).mcpServers, other: quiet('other') } }, null, 2),
    );
    await svc.invoke('removeServer', { name: 'kimai' });
    expect(Object.keys(readDoc(file).mcpServers)).toEqual(['other']);
  });

  it('a malformed edit shows file:line:col, keeps the last good list, and is never written over', async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    const broken = '{\n  "mcpServers": {\n    "kimai": { "command": "x" }\n    "two": {}\n  }\n}\n';
    const reported = nextEvent(svc, 'serversFileProblem', (p) => p.error !== null);
    saveByRename(file, broken);
    const { error } = await reported;
    expect(error).toContain(`${file}:4:5: not valid JSON`);
    expect(svc.serversFileProblem).toBe(error);
    // A front end that starts listening only now (a reloaded page) hears of it when it lists the servers.
    const late = nextEvent(svc, 'serversFileProblem', () => true);
    await svc.invoke('listServers', {});
    expect((await late).error).toBe(error);
    expect(names(await svc.invoke('listServers', {}))).toEqual(['kimai']);

    const refused = await svc.invoke('addServer', { name: 'added', entry: quiet('added') }).then(
      () => 'written',
      (e: unknown) => messageOf(e),
    );
    expect(refused).toContain('was changed on disk and is not valid now, so nothing was written');
    expect(refused).toContain(`${file}:4:5`);
    expect(readFileSync(file, 'utf8')).toBe(broken);

    const cleared = nextEvent(svc, 'serversFileProblem', (p) => p.error === null);
    saveByRename(file, JSON.stringify({ mcpServers: { fixed: quiet('fixed') } }));
    await cleared;
    expect(names(await svc.invoke('listServers', {}))).toEqual(['fixed']);
  });

  it('"Add server" with a name just added by hand is refused, not overwritten', async () => {
    const { dir, file } = fresh();
    const svc = await openService(dir);
    writeFileSync(file, JSON.stringify({ mcpServers: { ...readDoc(file).mcpServers, git: { command: 'uvx' } } }));
    const refused = await svc.invoke('addServer', { name: 'git', entry: quiet('ui') }).then(
      () => 'written',
      (e: unknown) => messageOf(e),
    );
    expect(refused).toBe('a server named "git" already exists');
    expect(readDoc(file).mcpServers.git).toEqual({ command: 'uvx' });
  });
});

describe('ServersFile: two writers never lose each other’s changes', () => {
  it('a writer that has not seen the other’s change merges it instead of writing over it', async () => {
    const { file } = fresh();
    const a = await ServersFile.open(file, { firstStart: {} });
    const b = await ServersFile.open(file);
    await a.update((raw) => void (raw.one = quiet('one')));
    await b.update((raw) => void (raw.two = quiet('two')));
    expect(Object.keys(readDoc(file).mcpServers).sort()).toEqual(['one', 'two']);
    expect(b.list.names().sort()).toEqual(['one', 'two']);
  });

  it('many updates from two writers at once all arrive', async () => {
    const { file } = fresh();
    const a = await ServersFile.open(file, { firstStart: {} });
    const b = await ServersFile.open(file);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).update((raw) => void (raw[`s${i}`] = quiet(`s${i}`)))),
    );
    expect(Object.keys(readDoc(file).mcpServers).length).toBe(12);
  });

  it('three processes adding servers at once: every one arrives', async () => {
    const { file } = fresh();
    const here = await ServersFile.open(file, { firstStart: {} });
    const writer = join(dirname(fileURLToPath(import.meta.url)), 'support', 'servers-writer.ts');
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const run = promisify(execFile);
    const others = ['p1', 'p2'].map((prefix) => run(process.execPath, ['--import', tsx, writer, file, prefix, '15']));
    for (let i = 0; i < 15; i++) await here.update((raw) => void (raw[`p0-${i}`] = quiet(`p0-${i}`)));
    for (const o of await Promise.all(others)) expect(o.stdout).toBe('done\n');
    const written = Object.keys(readDoc(file).mcpServers);
    expect(written).toHaveLength(45);
    for (const p of ['p0', 'p1', 'p2']) for (let i = 0; i < 15; i++) expect(written).toContain(`${p}-${i}`);
  });

  it('an edit saved between the read and the rename is merged on a second try (compare before write)', async () => {
    const { file } = fresh();
    const f = await ServersFile.open(file, { firstStart: { kimai: quiet('kimai') } });
    let tries = 0;
    await f.update((raw) => {
      tries++;
      // The first time round, an editor saves while this writer is working.
      if (tries === 1) saveByRename(file, JSON.stringify({ mcpServers: { kimai: quiet('kimai'), late: quiet('l') } }));
      raw.mine = quiet('mine');
    });
    expect(tries).toBe(2);
    expect(Object.keys(readDoc(file).mcpServers).sort()).toEqual(['kimai', 'late', 'mine']);
  });

  it('the watcher reports what changed, once per save, and ignores its own writes and temp files', async () => {
    const { file } = fresh();
    const f = await ServersFile.open(file, { firstStart: { kimai: quiet('kimai') }, debounceMs: 30 });
    closers.push(() => f.close());
    f.watch();
    const changes: ServerListChange[] = [];
    f.list.onChange((c) => changes.push(c));
    await f.update((raw) => void (raw.mine = quiet('mine')));
    expect(changes).toEqual([{ added: ['mine'], changed: [], removed: [] }]);
    const seen = new Promise<void>((resolve) => f.list.onChange(() => resolve()));
    saveByRename(file, JSON.stringify({ mcpServers: { kimai: quiet('edited'), mine: quiet('mine') } }));
    await seen;
    await new Promise((r) => setTimeout(r, 150)); // a further event for our own write would have arrived by now
    expect(changes).toEqual([
      { added: ['mine'], changed: [], removed: [] },
      { added: [], changed: ['kimai'], removed: [] },
    ]);
  });
});
