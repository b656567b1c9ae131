// "Cancel task" from a task question's dialog, through the app's real
// HostService (its question queue is what the dialog answers) against the
// real task fixtures in both eras: the task is cancelled with tasks/cancel
// (never an answer to the question: no tasks/update), the question is closed
// as cancelled and recorded as the human's decision, with the task id, in the
// real journal read back from disk. Legacy: tasks/cancel goes out before the
// cancel answer to the server's pending elicitation/create, so the server
// stops the task instead of finishing it as "the user dismissed the question".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import type { AnswerEntry, JournalEntry, QuestionEntry, TaskEntry } from '../../electron/core/history';
import { HistoryJournal } from '../../electron/core/history';
import { HostService } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';
import { receivedRequests, stdioFixture } from '../integration/host-harness';
import type { WireEntry } from '../fixtures/servers/wire-log';
import { readFileSync } from 'node:fs';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function open(kind: 'tasks-modern' | 'tasks-legacy') {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-cancel-task-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const fx = stdioFixture(kind);
  const history = await JournalHistory.open(join(dataDir, 'history'));
  const service = await HostService.create({
    dataDir,
    openExternal: async () => undefined,
    history,
    firstStartServers: { fx: fx.entry },
    watchConfig: false,
  });
  service.log = () => undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await service.close();
    await history.close();
  };
  cleanup.push(close);
  return { service, wireLog: fx.wireLog, dataDir, close };
}

const wire = (path: string): WireEntry[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WireEntry);

describe.each(['tasks-modern', 'tasks-legacy'] as const)('"Cancel task" in a task question (%s)', (kind) => {
  it('cancels the task with tasks/cancel, closes the question as cancelled by the human, with the task id', async () => {
    const { service, wireLog, dataDir, close } = await open(kind);
    await service.invoke('callTool', { server: 'fx', tool: 'deploy', args: {} });
    const question = await waitFor(
      () => service.invoke('listQuestions', {}).then((qs) => qs.find((q) => q.origin.task !== undefined)),
      'the task question',
    );
    const taskId = question.origin.task!.taskId;
    expect(question.message).toBe('Deploy billing to production?');

    // A question of another task (or none) cannot cancel this one.
    await expect(service.invoke('cancelTask', { taskId: 'not-this-task', questionId: question.id })).rejects.toThrow(
      `question ${question.id} is not a question of task not-this-task; nothing was cancelled`,
    );
    await expect(service.invoke('cancelTask', { taskId, questionId: 'gone' })).rejects.toThrow(
      'question gone is not waiting any more',
    );
    expect(receivedRequests(wireLog, 'tasks/cancel')).toHaveLength(0);

    const removed: string[] = [];
    service.events.on('questionRemoved', (e) => removed.push(`${e.questionId} ${e.reason}`));
    const after = await service.invoke('cancelTask', { taskId, questionId: question.id });
    expect(removed).toEqual([`${question.id} call-cancelled`]);
    expect(await service.invoke('listQuestions', {})).toEqual([]);
    // The server was asked once to cancel, and reports the task cancelled.
    const cancels = receivedRequests(wireLog, 'tasks/cancel');
    expect(cancels.map((c) => c.msg.params.taskId)).toEqual([taskId]);
    expect(after).toMatchObject({ taskId, status: 'cancelled', running: false });
    // Cancel task is not an answer to the question.
    expect(receivedRequests(wireLog, 'tasks/update')).toHaveLength(0);
    if (kind === 'tasks-legacy') {
      // The server's elicitation/create still needed its response: a cancel, sent after tasks/cancel.
      const entries = wire(wireLog);
      const elicit = entries.find(
        (e) => e.dir === 'out' && (e.msg as { method?: string }).method === 'elicitation/create',
      );
      const elicitId = (elicit!.msg as { id: unknown }).id;
      const reply = entries.findIndex(
        (e) =>
          e.dir === 'in' &&
          (e.msg as { id?: unknown; method?: unknown }).id === elicitId &&
          !('method' in (e.msg as object)),
      );
      const cancelAt = entries.findIndex(
        (e) => e.dir === 'in' && (e.msg as { method?: string }).method === 'tasks/cancel',
      );
      expect(reply).toBeGreaterThan(cancelAt);
      expect((entries[reply]!.msg as { result: unknown }).result).toEqual({ action: 'cancel' });
    }

    await close();
    const journal = await HistoryJournal.open(join(dataDir, 'history'));
    const { entries } = await journal.readAll();
    await journal.close();
    const asked = entries.find((e): e is QuestionEntry => e.kind === 'question');
    const answer = entries.find((e): e is AnswerEntry => e.kind === 'answer');
    expect(asked).toMatchObject({ questionId: question.id, taskId });
    expect(answer).toMatchObject({
      questionId: question.id,
      action: 'cancel',
      decidedBy: 'human',
      decidedByDetail: `the user cancelled task ${taskId.slice(0, 8)}… from its question ("Cancel task")`,
    });
    const last = entries.filter((e: JournalEntry): e is TaskEntry => e.kind === 'task').at(-1);
    expect(last).toMatchObject({ taskId, status: 'cancelled', ended: true });
  });
});
