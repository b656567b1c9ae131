import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTaskStore, type TaskRecord } from './task-store';

const record = (taskId: string, over: Partial<TaskRecord> = {}): TaskRecord => ({
  taskId,
  server: 'deploy',
  era: 'modern',
  tool: 'deploy',
  callId: `call-${taskId}`,
  startedAt: '2026-12-02T01:00:00.000Z',
  createdAt: '2026-12-02T01:00:00.000Z',
  ttlMs: null,
  status: 'working',
  lastUpdatedAt: '2026-12-02T01:00:00.000Z',
  ...over,
});

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('FileTaskStore shared by the app and CLI runs', () => {
  it('keeps a task another process saved after this one loaded, and the newer record of a shared task', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cs-tasks-'));
    const app = new FileTaskStore(dir);
    const cli = new FileTaskStore(dir);
    await app.save([record('shared')]);
    const appHolds = await app.load();

    // A CLI run starts a task of its own and sees the shared one finish.
    const finished = record('shared', {
      status: 'completed',
      lastUpdatedAt: '2026-12-02T01:05:00.000Z',
      endedAt: '2026-12-02T01:05:00.000Z',
    });
    await cli.save([finished, record('from-cli')]);

    // The app saves what it held (an older view of "shared") plus a task of its own.
    await app.save([...appHolds, record('from-app')]);

    const stored = await new FileTaskStore(dir).load();
    expect(stored.map((r) => r.taskId).sort()).toEqual(['from-app', 'from-cli', 'shared']);
    expect(stored.find((r) => r.taskId === 'shared')).toMatchObject({ status: 'completed' });
  });
});
