// In the web shell a consented link opens in the person's own browser, as a
// new tab from their click (issue 23 item 10), not through xdg-open on the
// host, which fails without a desktop. The host still checks the link first
// and hands back exactly what the tab opens; the new tab has no opener and
// sends no Referer. Real app, real web shell in 'tab' mode (what
// `countersign web` runs), real fixtures, real authorization server.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { startOidcFixture } from '../fixtures/oauth/oidc-authorization-server';
import { answerDialog, axe, consentToSignIn, pressUntil, stubExampleCom } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('links open in the person’s tab (web shell)', () => {
  it('a URL question: the host checks the link, the click opens exactly it in a new tab, detached', async () => {
    const modern = fixtureCommand('modern');
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { kimai: { command: modern.command, args: modern.args } },
      linkOpening: 'tab',
    });
    const requests = await stubExampleCom(page);
    await callFromToolsView(page, 'kimai', 'connect_account');
    const dialog = page.getByRole('dialog');
    const shown = (await dialog.getByTestId('url-full').textContent())!;
    expect(shown).toMatch(/^https:\/\/example\.com\/oauth\?state=[0-9a-f-]{36}$/);
    const popup = page.waitForEvent('popup');
    await pressUntil(page, 'Open in browser', '[data-testid="url-waiting"]');
    const tab = await popup;
    cleanups.push(() => tab.close());
    await tab.waitForLoadState();
    expect(tab.url()).toBe(shown);
    // noopener: the new page has no handle on the app; noreferrer: it is not told where the person came from.
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(requests.map((r) => r.url())).toEqual([shown]);
    expect(await requests[0]!.headerValue('referer')).toBeNull();
    // Nothing went through the host's system opener.
    expect(app.opened).toEqual([]);
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'I’m done, continue');
    await expect(page.locator('.call-card').first().locator('.result-text').textContent()).resolves.toBe(
      'account connected',
    );
    // The question is on record as opened by the person's consent.
    const history = await app.service.invoke('queryHistory', {});
    expect(JSON.stringify(history)).toContain('"urlOpened":true');
    expect(problems).toEqual([]);
  });

  it('a sign-in: the provider’s pages load in the new tab, the redirect completes it, and the call goes through', async () => {
    const oidc = await startOidcFixture();
    cleanups.push(() => oidc.close());
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { notes: { url: oidc.server.url } },
      linkOpening: 'tab',
    });
    const card = page.locator('.server-card[data-server="notes"]');
    await card.getByRole('button', { name: 'Sign in: notes' }).click();
    const dialog = page.getByRole('dialog', { name: 'notes asks you to sign in' });
    const link = (await dialog.getByTestId('url-full').textContent())!;
    const popup = page.waitForEvent('popup');
    await consentToSignIn(page);
    const tab = await popup;
    cleanups.push(() => tab.close());
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(app.opened).toEqual([]);
    await tab.locator('input[name="login"]').fill('ada');
    // The tab went to the provider with exactly the link the dialog showed (its login page may redirect within).
    expect(new URL(tab.url()).origin).toBe(new URL(link).origin);
    await tab.locator('input[name="password"]').fill('any password');
    await tab.getByRole('button', { name: 'Sign-in' }).click();
    await tab.getByRole('button', { name: 'Continue' }).click();
    await tab.getByText('Signed in. You can close this tab and return to Countersign.').waitFor();
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    await card.getByTestId('server-sign-in').getByText('Signed in', { exact: true }).waitFor();
    await callFromToolsView(page, 'notes', 'whoami');
    await expect
      .poll(() => page.locator('.call-card').first().locator('.result-text').textContent(), { timeout: 20_000 })
      .toContain('signed-in call reached the server');
    expect(problems).toEqual([]);
  });
});
