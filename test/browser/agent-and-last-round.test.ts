// Issue 11 §6 and §8 in real Chromium through the web shell.
// - With the round limit at 2, round 1 of a two-round call says its round and
//   nothing more; round 2 says it is the last the limit allows.
// - A real gateway process (over the app's approval socket) relays an agent's
//   call: the dialog and the History view's detail name the agent by what it
//   says it is (clientInfo name and version) before its connection id.
import { describe, expect, it } from 'vitest';
import { startApprovalServer } from '../../electron/core/approval/approval-server';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { startAgent, textOf } from '../gateway/harness';
import { answerDialog, axe } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');

describe('rounds and agents, as the dialog tells them', () => {
  it('the last round the round limit allows says so; earlier rounds do not', async () => {
    const { page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en', maxRounds: 2 },
      servers: { kimai: { command: modern.command, args: modern.args } },
    });
    await callFromToolsView(page, 'kimai', 'two_rounds');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('What name should the booking use?').waitFor();
    await expect(dialog.locator('.origin-round').textContent()).resolves.toBe('Round 1');
    await expect(dialog.getByTestId('last-round').count()).resolves.toBe(0);
    await dialog.getByLabel(/^Name/).fill('Ada');
    await answerDialog(page, 'Submit');

    await dialog.getByText('Book the time for Ada?').waitFor();
    await expect(dialog.locator('.origin-round').textContent()).resolves.toBe('Round 2');
    await expect(dialog.getByTestId('last-round').textContent()).resolves.toBe(
      'This is the last round the round limit allows: if the server asks again after it, the call is stopped.',
    );
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Accept');
    await page.locator('.call-card[data-call-state="complete"]').waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
  });

  it('names a gateway agent by its clientInfo name and version, then its connection, in the dialog and the history', async () => {
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { kimai: { command: modern.command, args: modern.args } },
    });
    const approval = await startApprovalServer({
      service: app.service,
      dataDir: app.dataDir,
      app: 'test',
      log: () => undefined,
    });
    const agent = await startAgent(app.dataDir, { name: 'test-agent' });
    try {
      const call = agent.client.callTool({ name: 'kimai__confirm_delete', arguments: { entryId: 7 } });
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Delete time entry 7?').waitFor({ timeout: 30_000 });
      const label = (await dialog.locator('.origin-agent').textContent()) ?? '';
      expect(label).toMatch(/^For the agent test-agent 1\.0\.0 \(stdio-[0-9a-f]{6}\)$/);
      expect(await axe(page)).toEqual([]);
      await answerDialog(page, 'Accept');
      expect(textOf(await call)).toBe('deleted entry 7');

      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
      await page.locator('.history-row', { hasText: 'Delete time entry 7?' }).click();
      const detail = page.locator('.history-detail');
      const agentRow = detail.locator('.facts-row', { has: page.locator('dt', { hasText: /^Agent$/ }) });
      await expect(agentRow.locator('dd').textContent()).resolves.toBe(label.replace(/^For the agent /, ''));
      expect(await axe(page)).toEqual([]);
    } finally {
      await agent.close();
      await approval.close();
    }
    expect(agent.violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
