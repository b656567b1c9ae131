// A task's status changes land in the history journal, each with its task id,
// and so do its questions and answers: real fixtures in both eras, a real
// journal in a temporary folder, read back from disk.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryJournal, type JournalEntry, type TaskEntry } from '../../electron/core/history';
import { JournalHistory } from '../../electron/core/service/journal-history';
import { Host } from '../../electron/core/host';
import { ScriptedPrompter, type ElicitSpec } from '../../electron/cli/elicit-spec';
import { stdioFixture } from '../integration/host-harness';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function run(kind: 'tasks-modern' | 'tasks-legacy', tool: string, specs: ElicitSpec[], cancelAfterMs?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'cs-task-history-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const history = await JournalHistory.open(dir);
  const host = new Host({
    servers: { fx: stdioFixture(kind).entry },
    prompter: new ScriptedPrompter(specs),
    observer: history.observer,
    pacingDelayMs: 50,
  });
  cleanup.push(() => host.close());
  const controller = new AbortController();
  if (cancelAfterMs !== undefined) {
    void (async () => {
      while ((await host.tasks.list()).length === 0) await new Promise((r) => setTimeout(r, 30));
      await new Promise((r) => setTimeout(r, cancelAfterMs));
      controller.abort(new Error('user'));
    })();
  }
  const outcome = await host.call({ server: 'fx', method: 'tools/call', name: tool, signal: controller.signal }).then(
    (r) => r.task?.taskId,
    (e: unknown) => e,
  );
  const [task] = await host.tasks.list();
  await history.close();
  const journal = await HistoryJournal.open(dir);
  const { entries } = await journal.readAll();
  await journal.close();
  return { entries, taskId: task!.taskId, outcome };
}

const taskEntries = (entries: JournalEntry[]) => entries.filter((e): e is TaskEntry => e.kind === 'task');
const transitions = (entries: JournalEntry[]) =>
  taskEntries(entries).map((e) => `${e.previous ?? '-'}>${e.status}${e.ended ? ' (ended)' : ''}`);

describe.each(['tasks-modern', 'tasks-legacy'] as const)('task history (%s)', (kind) => {
  it('records working, input_required, working, completed with the task id; the question carries it too', async () => {
    const { entries, taskId } = await run(kind, 'deploy', [{ kind: 'accept' }]);
    const tasks = taskEntries(entries);
    expect(tasks.every((e) => e.taskId === taskId && e.server === 'fx' && e.tool === 'deploy')).toBe(true);
    expect(transitions(entries)).toEqual([
      '->working',
      'working>input_required',
      'input_required>working',
      'working>completed (ended)',
    ]);
    const question = entries.find((e) => e.kind === 'question');
    expect(question).toMatchObject({ kind: 'question', taskId });
    // The question is recorded between the task's input_required and its return to working.
    const seqOf = (label: string) => tasks[transitions(entries).indexOf(label)]!.seq;
    expect(question!.seq).toBeGreaterThan(seqOf('working>input_required'));
    expect(question!.seq).toBeLessThan(seqOf('input_required>working'));
    expect(entries.find((e) => e.kind === 'answer')).toMatchObject({ action: 'accept' });
  });

  it('records a failed task once, ended, with why', async () => {
    const { entries } = await run(kind, 'explode', []);
    expect(transitions(entries)).toEqual(['->working', 'working>failed (ended)']);
    expect(taskEntries(entries).at(-1)!.note).toContain('database unreachable');
  });

  it('records a cancelled task as the server reports it', async () => {
    const { entries } = await run(kind, 'outlive_ttl', [], 100);
    expect(transitions(entries)).toEqual(['->working', 'working>cancelled (ended)']);
  });

  it('writes one entry per change of status, not per status message', async () => {
    const { entries } = await run(kind, 'stubborn', []);
    expect(transitions(entries)).toEqual(['->working', 'working>completed (ended)']);
  });
});
