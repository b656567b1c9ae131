// Durable tasks: the host stops while a task waits for the human (the app or
// CLI killed mid-question), a new host starts on the same data folder, the
// question is asked again, and the answer completes the task on the server,
// which kept running all along (HTTP fixture). Also the CLI's --detach,
// task list / get / follow / cancel on the same records.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseElicitSpec, ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { Host } from '../../electron/core/host';
import type { Prompter } from '../../electron/core/prompter/prompter';
import type { Question } from '../../shared/elicitation/types';
import { FileTaskStore } from '../../electron/core/tasks/task-store';
import { receivedRequests } from '../integration/host-harness';
import { startHttpFixture, type HttpFixture } from '../fixtures/spawn-fixture';
import { runCliIn } from '../support/cli';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await startHttpFixture('tasks-modern');
});
afterAll(async () => {
  await fx?.close();
});

/** A human who has not answered yet: the question stays open until the host goes away. */
class WaitingHuman implements Prompter {
  readonly asked: Question[] = [];
  ask(question: Question, signal: AbortSignal) {
    this.asked.push(question);
    return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  }
}

async function cli(argv: string[], data: string) {
  const { code, stdout, stderr } = await runCliIn(data, argv);
  return { code, out: stdout.join('\n'), err: stderr.join('\n') };
}

describe('tasks survive a restart', () => {
  it('a question open when the host stopped is asked again after the restart, and the answer completes the task', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-tasks-'));
    const human = new WaitingHuman();
    const first = new Host({ servers: { fx: { url: fx.url } }, prompter: human, taskStore: new FileTaskStore(data) });
    const running = first.call({ server: 'fx', method: 'tools/call', name: 'wait_for_approval' }).catch((e) => e);
    while (human.asked.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(human.asked[0]!.origin.task?.taskId).toBeTruthy();
    const taskId = human.asked[0]!.origin.task!.taskId;
    // The host goes away mid-question (what a killed app or CLI leaves behind).
    await first.close();
    await running;
    const file = join(data, 'tasks', 'tasks.json');
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(data, 'tasks')).mode & 0o777).toBe(0o700);
    }
    const stored = await new FileTaskStore(data).load();
    expect(stored).toEqual([expect.objectContaining({ taskId, status: 'input_required' })]);
    expect(stored[0]!.endedAt).toBeUndefined();

    const again = new ScriptedPrompter([parseElicitSpec('accept:{"note":"ship it"}')]);
    const asked: Question[] = [];
    const second = new Host({
      servers: { fx: { url: fx.url } },
      prompter: { ask: (q, s) => (asked.push(q), again.ask(q, s)) },
      taskStore: new FileTaskStore(data),
    });
    try {
      const resumed = await second.tasks.resume();
      expect(resumed.map((r) => r.record.taskId)).toEqual([taskId]);
      const result = await resumed[0]!.done;
      expect((result.content as Array<{ text: string }>)[0]!.text).toBe('Export approved: ship it');
      expect(asked).toHaveLength(1);
      expect(asked[0]!.origin).toMatchObject({ key: 'approve', task: { taskId } });
      const updates = receivedRequests(fx.wireLog, 'tasks/update').filter((u) => u.msg.params.taskId === taskId);
      expect(updates.map((u) => u.msg.params.inputResponses)).toEqual([
        { approve: { action: 'accept', content: { note: 'ship it' } } },
      ]);
      const after = await new FileTaskStore(data).load();
      expect(after[0]).toMatchObject({ taskId, status: 'completed', endedAt: expect.any(String) });
    } finally {
      await second.close();
    }
  });

  it('a task whose ttl passed while the host was away is closed with a clear note', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-tasks-'));
    const store = new FileTaskStore(data);
    await store.save([
      {
        taskId: 'gone-1',
        server: 'fx',
        era: 'modern',
        tool: 'deploy',
        callId: 'c1',
        startedAt: '2026-01-01T00:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
        ttlMs: 60_000,
        status: 'working',
        lastUpdatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    const host = new Host({ servers: { fx: { url: fx.url } }, prompter: new ScriptedPrompter([]), taskStore: store });
    try {
      expect(await host.tasks.resume()).toEqual([]);
      const [r] = await host.tasks.list();
      expect(r).toMatchObject({ endedAt: expect.any(String) });
      expect(r!.note).toMatch(/ttl of 60000 ms passed while the host was not running/);
    } finally {
      await host.close();
    }
  });

  it('CLI: call --detach prints the task id; task list shows it; task follow asks and completes; task cancel reports', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-tasks-'));
    const detached = await cli(
      ['call', '--url', fx.url, '--name', 'fx', '--tool', 'wait_for_approval', '--detach'],
      data,
    );
    expect(detached.code).toBe(0);
    const taskId = detached.out.trim();
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const list = await cli(['task', 'list'], data);
    expect(list.out).toContain(taskId);
    const got = await cli(['task', 'get', taskId.slice(0, 8), '--url', fx.url, '--name', 'fx'], data);
    expect(got.out).toContain(`[TASK] ${taskId} input_required`);
    const followed = await cli(
      ['task', 'follow', taskId, '--url', fx.url, '--name', 'fx', '--elicit', 'accept-defaults'],
      data,
    );
    expect(followed.code).toBe(0);
    expect(followed.out).toBe('Export approved: ok');
    expect(followed.err).toContain('[ELICIT]');

    const second = await cli(['call', '--url', fx.url, '--name', 'fx', '--tool', 'outlive_ttl', '--detach'], data);
    const cancelled = await cli(['task', 'cancel', second.out.trim(), '--url', fx.url, '--name', 'fx'], data);
    expect(cancelled.code).toBe(0);
    expect(cancelled.out).toMatch(/cancel sent; the server reports (cancelled|working)/);
  });

  it('CLI: call follows a task to its end and prints its status changes to stderr', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-tasks-'));
    const run = await cli(['call', '--url', fx.url, '--name', 'fx', '--tool', 'deploy', '--elicit', 'accept'], data);
    expect(run.code).toBe(0);
    expect(run.out).toBe('Deployed billing to production.');
    expect(run.err).toMatch(/\[TASK\] \S+ input_required/);
    expect(run.err).toMatch(/\[TASK\] \S+ completed/);
  });
});
