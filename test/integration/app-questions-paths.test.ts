// Issue 24 item 3 (SEP-3118) on the older ways a question reaches the host, against real fixture servers over
// stdio: a legacy (SDK 1.x, 2025-11-25) server's pushed elicitation/create, the same server's task question
// (related-task elicitation/create delivered while tasks/result waits), and a 2026-07-28 Tasks-extension task
// (tasks/get shows the question, tasks/update answers it). Each names the asking server's own app; with
// Settings → App-drawn questions on, the host opens that app from that server, and the answer's history entry
// names it; with the setting off the app is not opened and the entry names none.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostService } from '../../electron/core/service/host-service';
import { answeredEntry, askedBy, startQuestionService } from './app-question-service';
import { fixtureCommand, type FixtureKind } from '../fixtures/spawn-fixture';
import { TASK_QUESTION_APP } from '../fixtures/servers/task-flows';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(kind: FixtureKind) {
  const started = await startQuestionService({ fx: fixtureCommand(kind) }, true);
  closers.push(started.close);
  return started.service;
}

const asked = (service: HostService, tool: string) => askedBy(service, { server: 'fx', tool, args: {} });
const answered = answeredEntry;

const paths: Array<{ path: string; kind: FixtureKind; tool: string; era: 'legacy' | 'modern'; task: boolean }> = [
  {
    path: "a legacy server's pushed elicitation/create",
    kind: 'tasks-legacy',
    tool: 'app_form',
    era: 'legacy',
    task: false,
  },
  { path: "a legacy server's task question", kind: 'tasks-legacy', tool: 'app_form_task', era: 'legacy', task: true },
  {
    path: 'a Tasks-extension task (tasks/get, tasks/update)',
    kind: 'tasks-modern',
    tool: 'app_form',
    era: 'modern',
    task: true,
  },
];

describe.each(paths)('an app-drawn question from $path (SEP-3118)', ({ kind, tool, era, task }) => {
  it('with the setting on: names the app, which opens from the asking server; the answer names it', async () => {
    const service = await start(kind);
    await service.invoke('updateSettings', { appQuestions: true });
    const question = await asked(service, tool);
    // The path is the one meant: era, and whether a task asks.
    expect(question.origin.era).toBe(era);
    expect(question.origin.task !== undefined).toBe(task);
    expect(question.appForm).toEqual({ resourceUri: TASK_QUESTION_APP });
    const { app } = await service.invoke('openQuestionApp', { questionId: question.id });
    expect(app).toMatchObject({ server: 'fx', resourceUri: TASK_QUESTION_APP });
    await service.invoke('recordAppEvent', { appId: app.appId, event: 'question-drawn', text: '' });
    await service.invoke('answerQuestion', {
      questionId: question.id,
      answer: { action: 'accept', content: { size: 'M' } },
    });
    const item = await answered(service);
    expect(item.answer).toMatchObject({ action: 'accept', content: { size: 'M' }, drawnByApp: TASK_QUESTION_APP });
    expect(item.callEnd).toMatchObject({ outcome: 'complete', isError: false });
  });

  it('with the setting off: the app is not opened and the answer names none', async () => {
    const service = await start(kind);
    const question = await asked(service, tool);
    await expect(service.invoke('openQuestionApp', { questionId: question.id })).rejects.toThrow(/off/);
    await service.invoke('answerQuestion', {
      questionId: question.id,
      answer: { action: 'accept', content: { size: 'S' } },
    });
    const item = await answered(service);
    expect(item.answer).toMatchObject({ action: 'accept', content: { size: 'S' } });
    expect('drawnByApp' in item.answer!).toBe(false);
  });
});
