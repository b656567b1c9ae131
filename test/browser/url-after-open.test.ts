// URL dialogs after "Open in browser", through the real web shell: Decline
// stays available once the link is open, and when the system opener fails
// the dialog says so and offers Copy link and "I opened it myself" instead of
// claiming the link is open.
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, pressUntil, setTheme } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');

async function start(openerFails?: string) {
  const { app, page, problems } = await suite.open({
    settings: { theme: 'light', language: 'en' },
    servers: { kimai: { command: modern.command, args: modern.args } },
    ...(openerFails ? { openerFails } : {}),
  });
  await callFromToolsView(page, 'kimai', 'connect_account');
  await page.getByRole('dialog').locator('[data-testid="url-full"]').waitFor();
  return { app, page, problems };
}

describe('a URL dialog after the link is opened', () => {
  it('keeps Decline available once the link is open', async () => {
    const { app, page, problems } = await start();
    await pressUntil(page, 'Open in browser', '[data-testid="url-waiting"]');
    expect(app.opened).toHaveLength(1);
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('button', { name: 'Decline', exact: true }).count()).toBe(1);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await answerDialog(page, 'Decline');
    await expect(page.locator('.call-card').first().locator('.result-text').textContent()).resolves.toContain(
      'declined',
    );
    expect(problems).toEqual([]);
  });

  it('says so when the link could not be opened, and offers Copy link and "I opened it myself"', async () => {
    const { app, page, problems } = await start('xdg-open could not open it (exit code 3)');
    const dialog = page.getByRole('dialog');
    await pressUntil(page, 'Open in browser', '[data-testid="url-open-failed"]');
    expect(app.opened).toEqual([]);
    await expect(dialog.getByTestId('url-open-failed').textContent()).resolves.toContain('exit code 3');
    expect(await dialog.locator('[data-testid="url-waiting"]').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Copy link' }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'I opened it myself' }).click();
    await dialog.locator('[data-testid="url-waiting"]').waitFor();
    await answerDialog(page, 'I’m done, continue');
    await expect(page.locator('.call-card').first().locator('.result-text').textContent()).resolves.toBe(
      'account connected',
    );
    expect(problems).toEqual([]);
  });
});
