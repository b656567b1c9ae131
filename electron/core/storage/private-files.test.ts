import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otherUser, runAs } from '../../../test/support/other-user';
import { answer, question } from '../history/fixtures/helpers';
import { HistoryJournal } from '../history/journal';
import { LOCK_FILE } from '../history/lock';
import { approvalEndpoint, writeTokenFile } from '../approval/endpoint';
import { HostService } from '../service/host-service';
import {
  ensurePrivateDir,
  openPrivateDir,
  openDataFolder,
  openPrivateFile,
  PrivateStorageError,
  tightenPrivateTree,
  writePrivateFile,
} from './private-files';

const posix = process.platform !== 'win32';
const mode = async (path: string) => (await stat(path)).mode & 0o777;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'countersign-private-'));
  // Like a home folder: others may traverse it. mkdtemp's own 0700 would hide every bug below.
  await chmod(root, 0o755);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe.runIf(posix)('private folders and files', () => {
  it('creates missing folders 0700 and files 0600 whatever the umask', async () => {
    const previous = process.umask(0);
    try {
      const dir = join(root, 'a', 'b');
      await ensurePrivateDir(dir);
      expect(await mode(join(root, 'a'))).toBe(0o700);
      expect(await mode(dir)).toBe(0o700);
      await writePrivateFile(join(dir, 'f'), 'x');
      expect(await mode(join(dir, 'f'))).toBe(0o600);
      const h = await openPrivateFile(join(dir, 'g'), 'a');
      await h.close();
      expect(await mode(join(dir, 'g'))).toBe(0o600);
    } finally {
      process.umask(previous);
    }
    // The temp file of the atomic write is gone.
    expect((await readdir(join(root, 'a', 'b'))).sort()).toEqual(['f', 'g']);
  });

  it('tightens existing folders and files, keeps an owner execute bit, leaves symlinks alone', async () => {
    const dir = join(root, 'd');
    await mkdir(join(dir, 'sub'), { recursive: true });
    await chmod(dir, 0o755);
    await chmod(join(dir, 'sub'), 0o777);
    await writeFile(join(dir, 'f'), 'x', { mode: 0o644 });
    await writeFile(join(dir, 'sub', 'g'), 'x', { mode: 0o666 });
    await writeFile(join(dir, 'run.sh'), 'x', { mode: 0o755 });
    const outside = join(root, 'outside');
    await writeFile(outside, 'x', { mode: 0o644 });
    await symlink(outside, join(dir, 'link'));
    await openPrivateDir(dir);
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(join(dir, 'sub'))).toBe(0o700);
    expect(await mode(join(dir, 'f'))).toBe(0o600);
    expect(await mode(join(dir, 'sub', 'g'))).toBe(0o600);
    expect(await mode(join(dir, 'run.sh'))).toBe(0o700);
    expect(await mode(outside)).toBe(0o644);
  });

  it('does not descend when asked not to', async () => {
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'g'), 'x', { mode: 0o644 });
    await tightenPrivateTree(root, { recursive: false });
    expect(await mode(join(root, 'sub'))).toBe(0o700);
    expect(await mode(join(root, 'sub', 'g'))).toBe(0o644);
  });

  it('tightens a loose file it opens', async () => {
    const file = join(root, 'f');
    await writeFile(file, 'x', { mode: 0o644 });
    const h = await openPrivateFile(file, 'a');
    await h.close();
    expect(await mode(file)).toBe(0o600);
  });

  it('opening the data folder tightens its own subfolders all the way down, nothing else, and refuses a sticky folder', async () => {
    const data = join(root, 'data');
    await mkdir(join(data, 'tasks'), { recursive: true });
    await mkdir(join(data, 'projects', 'deep'), { recursive: true });
    await writeFile(join(data, 'tasks', 'tasks.json'), '{}', { mode: 0o666 });
    await writeFile(join(data, 'projects', 'deep', 'notes.txt'), 'x', { mode: 0o644 });
    await chmod(join(data, 'tasks', 'tasks.json'), 0o666);
    await chmod(join(data, 'projects', 'deep', 'notes.txt'), 0o644);
    await chmod(data, 0o777);
    await openDataFolder(data);
    expect(await mode(data)).toBe(0o700);
    expect(await mode(join(data, 'tasks', 'tasks.json'))).toBe(0o600);
    // Not one of the data folder's own: left as it is (a home folder given by mistake is not chmod-ed through).
    expect(await mode(join(data, 'projects', 'deep', 'notes.txt'))).toBe(0o644);
    const shared = join(root, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    await expect(openDataFolder(shared)).rejects.toThrow(/sticky.*fix: use a folder of its own/);
    expect((await stat(shared)).mode & 0o7777).toBe(0o1777);
  });

  it('refuses a symlink in place of a private folder', async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'fake'));
    await expect(ensurePrivateDir(join(root, 'fake'))).rejects.toThrow(PrivateStorageError);
  });

  it.runIf(process.getuid?.() === 0)('refuses a folder another user owns', async () => {
    const dir = join(root, 'theirs');
    await mkdir(dir, { mode: 0o700 });
    await chown(dir, 65534, 65534);
    await expect(ensurePrivateDir(dir)).rejects.toThrow(/it belongs to uid 65534, not to you .*fix: .*sudo chown -R/);
  });
});

describe.runIf(posix)('the data folder is private', () => {
  it('history: folder 0700; journal, writer lock and .torn sidecar 0600, old loose ones tightened', async () => {
    const dir = join(root, 'history');
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    await j.append(answer(1));
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(join(dir, LOCK_FILE))).toBe(0o600);
    await j.close();
    expect(await mode(join(dir, 'journal-000001.jsonl'))).toBe(0o600);

    // What an older version left: a 0755 folder and 0644 journal, then a crash tore the tail.
    await chmod(dir, 0o755);
    await chmod(join(dir, 'journal-000001.jsonl'), 0o644);
    await appendFile(join(dir, 'journal-000001.jsonl'), '{"kind":"answer","content":{"pw":"hun');
    const again = await HistoryJournal.open(dir);
    await again.close();
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(join(dir, 'journal-000001.jsonl'))).toBe(0o600);
    expect(await mode(join(dir, 'journal-000001.jsonl.torn'))).toBe(0o600);
  });

  it('host service: data folder 0700, servers.json and settings 0600, loose ones tightened', async () => {
    const dataDir = join(root, 'data');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'servers.json'), '{"mcpServers":{}}', { mode: 0o644 });
    const service = await HostService.create({ dataDir, connectOnStart: false, openExternal: async () => undefined });
    await service.close();
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'servers.json'))).toBe(0o600);
  });

  it('run/: the approval token file is 0600 in a 0700 folder', async () => {
    const { runDir, tokenFile } = approvalEndpoint(join(root, 'data'));
    await ensurePrivateDir(runDir);
    await writeTokenFile(tokenFile, 'secret');
    expect(await mode(runDir)).toBe(0o700);
    expect(await mode(tokenFile)).toBe(0o600);
  });

  it('another OS user cannot read an answer in the history', async (ctx) => {
    const user = otherUser();
    if (typeof user === 'string') return ctx.skip(`no second OS user: ${user}`);
    const dir = join(root, 'history');
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    await j.append(answer(1, { content: { pw: 'hunter2' } }));
    await j.close();
    // The control: that user can traverse the root and read a world-readable file in it.
    await writeFile(join(root, 'public.txt'), 'public', { mode: 0o644 });
    await chmod(join(root, 'public.txt'), 0o644);
    expect(runAs(user, 'cat', [join(root, 'public.txt')]).stdout).toBe('public');
    const attempt = runAs(user, 'cat', [join(dir, 'journal-000001.jsonl')]);
    expect(attempt.stdout).not.toContain('hunter2');
    expect(attempt.stderr).toMatch(/Permission denied/);
    expect(runAs(user, 'ls', [dir]).status).not.toBe(0);
  });
});
