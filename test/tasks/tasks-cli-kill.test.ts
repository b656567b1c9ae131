// A real `countersign call` process is killed with SIGKILL while its task
// waits for the person at the terminal (--elicit ask). The server keeps the
// task. `countersign task follow` (a second real process, same data folder)
// asks the same question again, the answer typed into it completes the task,
// and the server's wire log shows the one answer, sent by the second process.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivedRequests } from '../integration/host-harness';
import { startHttpFixture, type HttpFixture } from '../fixtures/spawn-fixture';
import { startBin, type BinProcess } from '../support/cli';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await startHttpFixture('tasks-modern');
});
afterAll(async () => {
  await fx?.close();
});

const bin = (argv: string[], data: string) => startBin(argv, data);

async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const asked = (cli: BinProcess) => cli.stderr().includes('[ASK] answer:');

describe('a killed CLI and its task', () => {
  it('SIGKILL while the task waits for input; task follow asks again and the answer completes the task', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-kill-'));
    const first = bin(
      ['call', '--url', fx.url, '--name', 'ci', '--tool', 'wait_for_approval', '--elicit', 'ask'],
      data,
    );
    await until('the first question', () => asked(first));
    expect(first.stderr()).toContain('[ASK] ci asks (tools/call wait_for_approval): Approve the nightly export?');
    expect(first.stderr()).toMatch(/\[ASK\] task [0-9a-f]{8}… of wait_for_approval, running 0 min/);
    expect(first.stderr()).toContain('[ASK]   note (Note): string, default "ok"');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed, no exit code: nothing ran after the signal

    // What the killed process left: the task, open, waiting for input, private to this user.
    const [record] = JSON.parse(readFileSync(join(data, 'tasks', 'tasks.json'), 'utf8')).tasks;
    expect(record).toMatchObject({ server: 'ci', tool: 'wait_for_approval', status: 'input_required' });
    expect(record.endedAt).toBeUndefined();
    const taskId: string = record.taskId;
    expect(receivedRequests(fx.wireLog, 'tasks/update').filter((u) => u.msg.params.taskId === taskId)).toEqual([]);

    const second = bin(
      ['task', 'follow', taskId.slice(0, 8), '--url', fx.url, '--name', 'ci', '--elicit', 'ask'],
      data,
    );
    await until('the question again', () => asked(second));
    expect(second.stderr()).toContain('[ASK] ci asks (tools/call wait_for_approval): Approve the nightly export?');
    second.child.stdin.write('accept:{"note":"after the restart"}\n');
    expect(await second.exited).toBe(0);
    expect(second.stdout().trim()).toBe('Export approved: after the restart');
    expect(second.stderr()).toMatch(new RegExp(`\\[TASK\\] ${taskId} completed`));

    // One answer reached the server, from the second process, under the key the task asked.
    const updates = receivedRequests(fx.wireLog, 'tasks/update').filter((u) => u.msg.params.taskId === taskId);
    expect(updates.map((u) => u.msg.params.inputResponses)).toEqual([
      { approve: { action: 'accept', content: { note: 'after the restart' } } },
    ]);
    const after = JSON.parse(readFileSync(join(data, 'tasks', 'tasks.json'), 'utf8')).tasks[0];
    expect(after).toMatchObject({ taskId, status: 'completed', endedAt: expect.any(String) });
  }, 120_000);
});
