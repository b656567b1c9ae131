// Issue 21 §2 in real Chromium through the web shell: a tab that is reloaded
// or closed answers nothing. Only the human's action on a question answers
// it, and the history says in which tab ("tab 2", as the shell numbers the
// connections it took). Closing the last tab leaves the question open: an
// agent behind the gateway keeps waiting, with progress, and the next tab
// shows the question again.
import { expect, it, vi } from 'vitest';
import type { QuestionItem } from '../../shared/history/items';
import { startApprovalServer } from '../../electron/core/approval/approval-server';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { startAgent, textOf } from '../gateway/harness';
import { answerDialog, openApp, type AppShell } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const servers = { kimai: { command: modern.command, args: modern.args } };

/** The history's item for the question with this message. */
async function historyOf(app: AppShell, message: string): Promise<QuestionItem | undefined> {
  const { entries } = await app.service.invoke('queryHistory', {});
  return entries.find((e): e is QuestionItem => e.kind === 'question' && e.question.message === message);
}

it('reloading and closing tab B leaves the question open in tab A; the server hears nothing until tab A answers', async () => {
  const { app, page: tabA, problems } = await suite.open({ settings: { theme: 'light', language: 'en' }, servers });
  const { page: tabB } = await openApp(suite.browser(), app);
  await vi.waitFor(() => expect(app.shell.tabs).toBe(2));
  const { callId } = await app.service.invoke('callTool', {
    server: 'kimai',
    tool: 'confirm_delete',
    args: { entryId: 7 },
  });
  for (const tab of [tabA, tabB]) await tab.getByRole('dialog').getByText('Delete time entry 7?').waitFor();

  await tabB.reload();
  // The reloaded tab shows the question that is still waiting.
  await tabB.getByRole('dialog').getByText('Delete time entry 7?').waitFor();
  await tabB.close();
  // Every frame tab B sent was handled before its socket's close was.
  await vi.waitFor(() => expect(app.shell.tabs).toBe(1));

  expect(app.service.questions.list().map((q) => q.message)).toEqual(['Delete time entry 7?']);
  expect(app.service.runningCalls).toBe(1);
  // Nothing was answered, so nothing was recorded as an answer or sent.
  expect((await historyOf(app, 'Delete time entry 7?'))?.answer).toBeUndefined();
  await expect(tabA.getByRole('dialog').getByText('Delete time entry 7?').isVisible()).resolves.toBe(true);

  const ended = new Promise<unknown>((resolve) =>
    app.service.on('callUpdated', (c) => c.callId === callId && c.state !== 'running' && resolve(c)),
  );
  await answerDialog(tabA, 'Accept');
  await expect(ended).resolves.toMatchObject({ state: 'complete' });
  const item = await historyOf(app, 'Delete time entry 7?');
  expect(item?.answer).toMatchObject({ action: 'accept', decidedBy: 'human', decidedByDetail: 'tab 1' });
  // The History view says so too.
  await tabA.getByRole('navigation').getByRole('button', { name: 'History' }).click();
  await tabA.locator('.history-row', { hasText: 'Delete time entry 7?' }).click();
  const decided = tabA.locator('.history-detail .facts-row', { has: tabA.locator('dt', { hasText: /^Decided by$/ }) });
  await expect(decided.locator('dd').textContent()).resolves.toBe('You (tab 1)');
  expect(problems).toEqual([]);
});

it('closing every tab leaves an agent’s question open, with progress; a new tab answers it, and the history names that tab', async () => {
  const { app, page, problems } = await suite.open({ settings: { theme: 'light', language: 'en' }, servers });
  const service = app.service;
  const approval = await startApprovalServer({
    service: {
      questions: service.questions,
      observer: service.observer,
      isMuted: (s) => service.isMuted(s),
      whenVisible: (signal) => app.shell.whenVisible(signal),
    },
    dataDir: app.dataDir,
    app: 'web',
    log: () => undefined,
  });
  const agent = await startAgent(app.dataDir, { name: 'test-agent' });
  try {
    const progress: unknown[] = [];
    const call = agent.client.callTool({ name: 'kimai__confirm_delete', arguments: { entryId: 8 } }, {
      onprogress: (p: unknown) => void progress.push(p),
      resetTimeoutOnProgress: true,
    } as never);
    await page.getByRole('dialog').getByText('Delete time entry 8?').waitFor({ timeout: 30_000 });

    await page.close();
    await vi.waitFor(() => expect(app.shell.tabs).toBe(0));
    expect(service.questions.list().map((q) => q.message)).toEqual(['Delete time entry 8?']);
    // The agent keeps waiting, and keeps hearing that it waits.
    const seen = progress.length;
    await vi.waitFor(() => expect(progress.length).toBeGreaterThanOrEqual(seen + 2), { timeout: 10_000 });
    expect(service.questions.list().map((q) => q.message)).toEqual(['Delete time entry 8?']);
    expect((await historyOf(app, 'Delete time entry 8?'))?.answer).toBeUndefined();

    const { page: again, problems: againProblems } = await openApp(suite.browser(), app);
    try {
      await again.getByRole('dialog').getByText('Delete time entry 8?').waitFor();
      await answerDialog(again, 'Accept');
      expect(textOf(await call)).toBe('deleted entry 8');
    } finally {
      await again.close();
    }
    const item = await historyOf(app, 'Delete time entry 8?');
    expect(item?.answer).toMatchObject({ action: 'accept', decidedBy: 'human', decidedByDetail: 'tab 2' });
    expect(againProblems).toEqual([]);
  } finally {
    await agent.close();
    await approval.close();
  }
  expect(agent.violations).toEqual([]);
  expect(problems).toEqual([]);
});
