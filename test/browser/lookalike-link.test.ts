// A look-alike link through the real web shell: https://xn--pypal-4ve.com
// (a Cyrillic "а" in "paypal"). The dialog headlines the ASCII form, shows
// the Unicode form under it as "Looks like", makes Decline the primary
// button, and opens only after "Open anyway…" and then "Open anyway".
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, pressUntil, setTheme, shot } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');

describe('a look-alike link', () => {
  it('is headlined in its xn-- form and opens only by a second, deliberate step', async () => {
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { shop: { command: modern.command, args: modern.args } },
    });
    await callFromToolsView(page, 'shop', 'lookalike_link');

    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-testid="url-full"]').waitFor();
    await expect(dialog.getByTestId('url-host').textContent()).resolves.toBe('xn--pypal-4ve.com');
    await expect(dialog.locator('.url-lookalike').textContent()).resolves.toBe('Looks like pаypal.com');
    // The biggest text is the honest form.
    const sizes = await dialog.evaluate((d) => ({
      host: parseFloat(getComputedStyle(d.querySelector('[data-testid="url-host"]')!).fontSize),
      unicode: parseFloat(getComputedStyle(d.querySelector('[data-testid="url-unicode"]')!).fontSize),
    }));
    expect(sizes.host).toBeGreaterThan(sizes.unicode);
    // No primary "Open in browser": Decline is the primary button.
    expect(await dialog.getByRole('button', { name: 'Open in browser' }).count()).toBe(0);
    await expect(dialog.locator('.button-primary').textContent()).resolves.toBe('Decline');
    await expect(dialog.locator('[data-code="confusable"]').textContent()).resolves.toContain(
      'letters that only look like ordinary ones',
    );
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await setTheme(app, page, 'light');
    await shot(page, 'app-url-lookalike-light');

    await pressUntil(page, 'Open anyway…', '[data-testid="url-lookalike-stop"]');
    expect(app.opened).toEqual([]);
    expect(await axe(page)).toEqual([]);
    await pressUntil(page, 'Open anyway', '[data-testid="url-waiting"]');
    expect(app.opened).toEqual(['https://xn--pypal-4ve.com/login']);
    await answerDialog(page, 'I’m done, continue');
    await expect(page.locator('.call-card').first().locator('.result-text').textContent()).resolves.toBe(
      'login: accept',
    );
    expect(problems).toEqual([]);
  });
});
