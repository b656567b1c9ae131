// Files you don't own never run as you (issue 21, item 3): a servers.json
// that another OS user (cs-agent) owns, or a symlink in its place, or a data
// folder that user owns, is refused by the CLI and the gateway with one line
// naming the path and the fix, and its command never runs (the marker file it
// would create stays absent). A loose data folder of your own is tightened by
// every entry point, down to tasks/tasks.json.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { otherUser } from '../support/other-user';
import { runCliIn, startBin } from '../support/cli';

const user = otherUser();
const mode = (path: string) => statSync(path).mode & 0o777;

/** A servers.json whose one server, "evil", would create `marker` when started. */
function evilServers(marker: string): string {
  return JSON.stringify({ mcpServers: { evil: { command: '/bin/sh', args: ['-c', `touch ${marker}`] } } });
}

/** A fresh root for one case: others may traverse it, like a home folder. */
function caseRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cs-owners-'));
  chmodSync(root, 0o755);
  return root;
}

/** What a refusal must look like: one line, exit 2, naming the path and a fix. */
function expectRefusal(code: number | null, stderr: string, path: string): void {
  expect(code).toBe(2);
  const lines = stderr.split('\n').filter((l) => l.startsWith('countersign: error:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(/; fix: /);
}

describe.skipIf(typeof user === 'string')('files another user owns are refused', () => {
  const agent = typeof user === 'string' ? { uid: -1, gid: -1 } : user;

  it('call --server: a servers.json owned by another user is refused and its command never runs', async () => {
    const root = caseRoot();
    const data = join(root, 'data');
    mkdirSync(data, { mode: 0o700 });
    const marker = join(root, 'ran');
    const servers = join(data, 'servers.json');
    writeFileSync(servers, evilServers(marker), { mode: 0o600 });
    chownSync(servers, agent.uid, agent.gid);
    const r = await runCliIn(data, ['call', '--server', 'evil', '--tool', 'x']);
    expectRefusal(r.code, r.stderr.join('\n'), servers);
    expect(r.stderr.join('\n')).toMatch(new RegExp(`belongs to uid ${agent.uid}, not to you`));
    expect(existsSync(marker)).toBe(false);
  });

  it('call --server: a servers.json that is a symlink is refused, even to a file of your own', async () => {
    const root = caseRoot();
    const data = join(root, 'data');
    mkdirSync(data, { mode: 0o700 });
    const marker = join(root, 'ran');
    const elsewhere = join(root, 'theirs');
    mkdirSync(elsewhere);
    chownSync(elsewhere, agent.uid, agent.gid);
    const target = join(elsewhere, 'servers.json');
    writeFileSync(target, evilServers(marker), { mode: 0o644 });
    symlinkSync(target, join(data, 'servers.json'));
    const r = await runCliIn(data, ['call', '--server', 'evil', '--tool', 'x']);
    expectRefusal(r.code, r.stderr.join('\n'), join(data, 'servers.json'));
    expect(r.stderr.join('\n')).toMatch(/symbolic link/);
    expect(existsSync(marker)).toBe(false);
  });

  it('call --config: a file elsewhere that another user owns, or that others may write, is refused', async () => {
    const root = caseRoot();
    const data = join(root, 'data');
    mkdirSync(data, { mode: 0o700 });
    const marker = join(root, 'ran');
    const config = join(root, 'mcp.json');
    writeFileSync(config, evilServers(marker), { mode: 0o644 });
    chownSync(config, agent.uid, agent.gid);
    const foreign = await runCliIn(data, ['call', '--config', config, '--server', 'evil', '--tool', 'x']);
    expectRefusal(foreign.code, foreign.stderr.join('\n'), config);
    chownSync(config, process.getuid!(), process.getgid!());
    chmodSync(config, 0o666);
    const loose = await runCliIn(data, ['call', '--config', config, '--server', 'evil', '--tool', 'x']);
    expectRefusal(loose.code, loose.stderr.join('\n'), config);
    expect(loose.stderr.join('\n')).toMatch(/writable by every user .*fix: chmod go-w/);
    // The user's own file outside the data folder is refused, never chmod-ed.
    expect(mode(config)).toBe(0o666);
    expect(existsSync(marker)).toBe(false);
  });

  it('a data folder owned by another user is refused before anything in it is read', async () => {
    const root = caseRoot();
    const data = join(root, 'data');
    mkdirSync(data, { mode: 0o700 });
    const marker = join(root, 'ran');
    writeFileSync(join(data, 'servers.json'), evilServers(marker), { mode: 0o600 });
    chownSync(data, agent.uid, agent.gid);
    const r = await runCliIn(data, ['call', '--server', 'evil', '--tool', 'x']);
    expectRefusal(r.code, r.stderr.join('\n'), data);
    expect(r.stderr.join('\n')).toMatch(/sudo chown -R/);
    expect(existsSync(marker)).toBe(false);
  });

  it('the gateway refuses a servers.json owned by another user: exit 2, and no agent gets its command run', async () => {
    const root = caseRoot();
    const data = join(root, 'data');
    mkdirSync(data, { mode: 0o700 });
    const marker = join(root, 'ran');
    const servers = join(data, 'servers.json');
    writeFileSync(servers, evilServers(marker), { mode: 0o600 });
    chownSync(servers, agent.uid, agent.gid);
    const gateway = startBin(['gateway', '--data-dir', data, '--no-start-app'], data);
    // An agent asks for the tools: the old gateway started "evil" for it.
    gateway.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } },
      })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
    );
    const code = await Promise.race([
      gateway.exited,
      new Promise<'running'>((r) => setTimeout(() => r('running'), 20_000)),
    ]);
    if (code === 'running') {
      gateway.child.stdin.end();
      await gateway.exited;
    }
    expectRefusal(code === 'running' ? null : code, gateway.stderr(), servers);
    expect(existsSync(marker)).toBe(false);
  });
});

describe.runIf(process.platform !== 'win32')(
  'a loose data folder of your own is tightened by every entry point',
  () => {
    /** A data folder as an older version or a careless umask left it: 0777, tasks/ 0777, tasks.json 0666. */
    function looseData(): { data: string; tasks: string } {
      const data = join(caseRoot(), 'data');
      mkdirSync(join(data, 'tasks'), { recursive: true });
      const tasks = join(data, 'tasks', 'tasks.json');
      writeFileSync(tasks, JSON.stringify({ version: 1, tasks: [] }));
      chmodSync(data, 0o777);
      chmodSync(join(data, 'tasks'), 0o777);
      chmodSync(tasks, 0o666);
      return { data, tasks };
    }

    function expectTight({ data, tasks }: { data: string; tasks: string }): void {
      expect(mode(data)).toBe(0o700);
      expect(mode(join(data, 'tasks'))).toBe(0o700);
      expect(mode(tasks)).toBe(0o600);
    }

    it.each([
      ['call', ['call', '--server', 'none', '--tool', 'x']],
      ['task list', ['task', 'list']],
      ['history verify', ['history', 'verify']],
    ])('%s', async (_name, argv) => {
      const loose = looseData();
      await runCliIn(loose.data, argv);
      expectTight(loose);
    });

    it('gateway', async () => {
      const loose = looseData();
      const gateway = startBin(['gateway', '--data-dir', loose.data, '--no-start-app'], loose.data, 'ignore');
      // stdin at its end: the gateway opens the data folder, serves nothing and leaves.
      await gateway.exited;
      expect(gateway.stderr()).not.toMatch(/countersign: error/);
      expectTight(loose);
    });
  },
);
