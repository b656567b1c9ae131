// Tasks in the real app through the real web shell, against the real
// 2026-07-28 Tasks extension fixture: a task's question is answered in its
// dialog (which names the task) and completes the task; Cancel in the Tasks
// view sends tasks/cancel and the view shows what the server then reports,
// for a task that stops and one that ignores the cancel. Wire facts are read
// on the server's log.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { receivedRequests, stdioFixture } from '../integration/host-harness';
import { answerDialog, axe, setTheme, shot } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();

function server(env: Record<string, string> = {}, kind: 'tasks-modern' | 'tasks-legacy' = 'tasks-modern') {
  const fx = stdioFixture(kind);
  return {
    entry: { ...fx.entry, env: { ...(fx.entry as { env: Record<string, string> }).env, ...env } },
    wireLog: fx.wireLog,
  };
}

const openTasks = (page: Page) => page.getByRole('navigation').getByRole('button', { name: 'Tasks' }).click();
const finishedRow = (page: Page, tool: string) => page.locator(`.task-finished:has(.mono:text-is("${tool}"))`);

describe('tasks in the app', () => {
  it('a task question names its task in the dialog, and the answer there completes the task', async () => {
    const ci = server();
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { ci: ci.entry },
    });
    await callFromToolsView(page, 'ci', 'deploy');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deploy billing to production?').waitFor({ timeout: 30_000 });
    const [task] = await app.service.invoke('listTasks', {});
    expect(task).toMatchObject({ server: 'ci', tool: 'deploy', status: 'input_required', running: true });
    await expect(dialog.getByTestId('origin-task').textContent()).resolves.toBe(
      `Task ${task!.taskId.slice(0, 6)}… of deploy, running under a minute`,
    );
    await shot(page, 'app-task-question-light');
    await answerDialog(page, 'Accept');
    await expect
      .poll(() => page.locator('.call-card').first().getAttribute('data-call-state'), { timeout: 20_000 })
      .toBe('complete');
    // The answer went to the task with tasks/update, under the key it asked.
    const updates = receivedRequests(ci.wireLog, 'tasks/update');
    expect(updates.map((u) => [u.msg.params.taskId, u.msg.params.inputResponses])).toEqual([
      [task!.taskId, { confirm: { action: 'accept', content: {} } }],
    ]);
    await openTasks(page);
    const row = finishedRow(page, 'deploy');
    await expect(row.getByTestId('task-status').textContent()).resolves.toBe('Completed');
    await expect(row.getByTestId('task-result').textContent()).resolves.toBe('Deployed billing to production.');
    expect(problems).toEqual([]);
  });

  it('"Cancel task" in a task question\'s dialog cancels the task, in both eras; the question just closes', async () => {
    // The rest of the app is inert while the dialog is open: the task is cancelled from the dialog itself.
    const ci = server();
    const old = server({}, 'tasks-legacy');
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { ci: ci.entry, old: old.entry },
    });
    await page.locator('.server-card[data-status="connected"]').nth(1).waitFor({ timeout: 30_000 });
    for (const [name, fx] of [
      ['ci', ci],
      ['old', old],
    ] as const) {
      await app.service.invoke('callTool', { server: name, tool: 'deploy', args: {} });
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Deploy billing to production?').waitFor({ timeout: 30_000 });
      const task = (await app.service.invoke('listTasks', {})).find((t) => t.server === name)!;
      const label = `Cancel task ${task.taskId.slice(0, 6)}… of deploy`;
      const cancel = dialog.getByRole('button', { name: label, exact: true });
      await expect(cancel.textContent()).resolves.toBe('Cancel task');
      if (name === 'ci') {
        for (const theme of ['light', 'dark'] as const) {
          await setTheme(app, page, theme);
          expect(await axe(page)).toEqual([]);
        }
        await setTheme(app, page, 'light');
        await shot(page, 'app-task-question-cancel-light');
      }
      await answerDialog(page, label);
      await openTasks(page);
      const row = page.locator(`.task-finished[data-task-id="${task.taskId}"]`);
      await expect.poll(() => row.getByTestId('task-status').textContent(), { timeout: 20_000 }).toBe('Cancelled');
      // One tasks/cancel for the task, and the question was not answered as if declined.
      const cancels = receivedRequests(fx.wireLog, 'tasks/cancel');
      expect(cancels.map((c) => c.msg.params.taskId)).toEqual([task.taskId]);
      expect(receivedRequests(fx.wireLog, 'tasks/update')).toEqual([]);
      // The human did it: no "withdrawn" note, nothing waiting.
      await expect(page.locator('.note').count()).resolves.toBe(0);
      expect(await app.service.invoke('listQuestions', {})).toEqual([]);
      await page.getByRole('navigation').getByRole('button', { name: 'Servers' }).click();
    }
    expect(problems).toEqual([]);
  });

  it('Cancel in the Tasks view cancels a task, shown as the server reports it; axe clean in light and dark', async () => {
    // "jobs" stops when asked (its ttl made long); "slow" ignores cancel and takes 12 s.
    const jobs = server({ FIXTURE_TASK_SHORT_TTL_MS: '600000' });
    const slow = server({ FIXTURE_TASK_STEP_MS: '1500' });
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { jobs: jobs.entry, slow: slow.entry },
    });
    await page.locator('.server-card[data-status="connected"]').nth(1).waitFor({ timeout: 30_000 });
    await app.service.invoke('callTool', { server: 'jobs', tool: 'outlive_ttl', args: {} });
    await app.service.invoke('callTool', { server: 'slow', tool: 'stubborn', args: {} });
    await openTasks(page);
    const running = page.getByRole('region', { name: 'Running' });
    await expect.poll(() => running.getByRole('row').count(), { timeout: 20_000 }).toBe(3);
    await expect(
      running
        .getByRole('row', { name: /outlive_ttl/ })
        .getByTestId('task-status')
        .textContent(),
    ).resolves.toBe('Working');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await shot(page, 'app-tasks-dark');
    await setTheme(app, page, 'light');

    await running.getByRole('button', { name: /^Cancel task .* of outlive_ttl$/ }).click();
    const stopped = finishedRow(page, 'outlive_ttl');
    await expect.poll(() => stopped.getByTestId('task-status').textContent(), { timeout: 20_000 }).toBe('Cancelled');
    expect(receivedRequests(jobs.wireLog, 'tasks/cancel')).toHaveLength(1);

    await running.getByRole('button', { name: /^Cancel task .* of stubborn$/ }).click();
    const ignored = finishedRow(page, 'stubborn');
    // The server said it goes on: the view says so instead of pretending it stopped.
    await expect.poll(() => ignored.getByTestId('task-status').textContent(), { timeout: 20_000 }).toBe('Working');
    await expect(ignored.locator('.task-note').textContent()).resolves.toContain('cancellation is cooperative');
    expect(receivedRequests(slow.wireLog, 'tasks/cancel')).toHaveLength(1);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await shot(page, 'app-tasks-finished-light');
    expect(problems).toEqual([]);
  });

  it('a task whose question was declined completes on the server, and the app says "Declined", in both eras', async () => {
    const modern = server();
    const legacy = server({}, 'tasks-legacy');
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { ci: modern.entry, old: legacy.entry },
    });
    for (const name of ['ci', 'old']) {
      await callFromToolsView(page, name, 'deploy');
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Deploy billing to production?').waitFor({ timeout: 30_000 });
      await answerDialog(page, 'Decline');
      await expect
        .poll(() => page.locator('.call-card').first().getAttribute('data-call-state'), { timeout: 20_000 })
        .toBe('declined');
      await page.getByRole('navigation').getByRole('button', { name: 'Servers' }).click();
    }
    await openTasks(page);
    const rows = page.locator('.task-finished');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    for (let i = 0; i < 2; i++) {
      const row = rows.nth(i);
      await expect(row.getAttribute('data-task-status')).resolves.toBe('completed');
      await expect(row.getByTestId('task-status').textContent()).resolves.toBe('Declined');
      await expect(row.getByTestId('task-outcome-note').textContent()).resolves.toBe(
        'You declined its question; the server then ended with the reply below.',
      );
      await expect(row.getByTestId('task-result').locator('.result-text').textContent()).resolves.toBe(
        'Deploy of billing stopped: the user chose decline.',
      );
    }
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
