// Signing in from the app, end to end in Chromium through the real web shell
// (issue 10 §2, §4 and its tests): a certified OpenID provider
// (oidc-provider) in front of a real bearer-protected MCP server on
// 127.0.0.1. The Servers view shows that the server needs a sign-in; Sign in
// puts the sign-in dialog in the question queue; Open in browser is the
// consent, and the "system browser" (a second Chromium page) gets exactly the
// link the dialog showed; the provider's own login and consent pages are
// filled in; the redirect reaches the core's loopback listener; the tool
// call gets its result; Sign out revokes the token at the provider. axe
// checks the dialog in light and dark, and the dialog's screenshot is what
// the README shows.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startOidcFixture, type OidcFixture } from '../fixtures/oauth/oidc-authorization-server';
import { answerDialog, axe, consentToSignIn, setTheme, shot } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('signing in to a protected server from the app', () => {
  it('dialog, consent, the provider’s login and consent pages, the redirect, the tool result, sign-out', async () => {
    const oidc: OidcFixture = await startOidcFixture();
    cleanups.push(() => oidc.close());
    // The "system browser": each link it is handed loads in a page of its own.
    const browserPages: Promise<Page>[] = [];
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { notes: { url: oidc.server.url } },
      onOpen: (url) => {
        browserPages.push(
          suite
            .browser()
            .newPage()
            .then(async (p) => {
              await p.goto(url);
              return p;
            }),
        );
      },
    });
    cleanups.push(async () => {
      for (const p of browserPages) await (await p).close();
    });

    // The background connect ran into the 401: the card says so, with a Sign in button, not an error.
    const card = page.locator('.server-card[data-server="notes"]');
    await card.getByTestId('server-sign-in').getByText('Sign-in needed').waitFor();
    expect(await card.locator('.server-error').count()).toBe(0);
    await card.getByRole('button', { name: 'Sign in: notes' }).click();

    // The dialog: who asks, the authorization server's host emphasised, the issuer, the full link, the scopes.
    const dialog = page.getByRole('dialog', { name: 'notes asks you to sign in' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('url-host').textContent()).toBe('127.0.0.1');
    expect(await dialog.getByTestId('sign-in-issuer').textContent()).toBe(oidc.issuer);
    const link = (await dialog.getByTestId('url-full').textContent())!;
    expect(link.startsWith(`${oidc.issuer}/auth?`)).toBe(true);
    const params = new URL(link).searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('resource')).toBe(oidc.server.url);
    expect(params.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(params.get('state')).toBeTruthy();
    expect(await dialog.getByTestId('sign-in-scopes').textContent()).toContain('mcp:read');
    // Nothing opened before the consent.
    expect(app.opened).toEqual([]);
    // The buttons have armed (they ignore clicks for a moment after a dialog appears) before the picture.
    await dialog.locator('[data-arming]').first().waitFor({ state: 'detached' });
    await shot(page, 'app-sign-in-dialog-light');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await setTheme(app, page, 'light');

    // Consent: the dialog waits, the system browser got exactly the link shown.
    await consentToSignIn(page);
    expect(app.opened).toEqual([link]);
    expect(await axe(page)).toEqual([]);

    // The provider's own pages, filled in as a person would.
    const login = await browserPages[0]!;
    await login.locator('input[name="login"]').fill('ada');
    await login.locator('input[name="password"]').fill('any password');
    await login.getByRole('button', { name: 'Sign-in' }).click();
    await login.getByRole('button', { name: 'Continue' }).click();
    // The redirect reached the core's loopback listener, which says so.
    await login.getByText('Signed in. You can close this tab and return to Countersign.').waitFor();
    expect(new URL(login.url()).hostname).toBe('127.0.0.1');
    expect(new URL(login.url()).pathname).toBe('/callback');

    // The dialog closed by itself; the card shows the sign-in (no token) and the server connected.
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    const signedIn = card.getByTestId('server-sign-in');
    await signedIn.getByText('Signed in', { exact: true }).waitFor();
    expect(await signedIn.textContent()).toContain(`Issuer: ${oidc.issuer}`);
    expect(await signedIn.textContent()).toContain('mcp:read');
    expect(await signedIn.textContent()).toMatch(/Token expires/);

    // The tool call goes through with the provider's token.
    await callFromToolsView(page, 'notes', 'whoami');
    await expect
      .poll(() => page.locator('.call-card').first().locator('.result-text').textContent(), { timeout: 20_000 })
      .toContain('signed-in call reached the server');
    const token = oidc.server.seenTokens.at(-1)!;
    expect(await oidc.tokenScopes(token)).toContain('mcp:read');
    // The renderer never held the token.
    expect(await page.evaluate((t) => document.documentElement.outerHTML.includes(t), token)).toBe(false);

    // Sign out from the Servers view: revoked at the provider, and the card asks for a sign-in again.
    await page.locator('nav .nav-item', { hasText: 'Servers' }).click();
    await card.getByRole('button', { name: 'Sign out' }).click();
    await card.getByTestId('server-sign-in').getByText('Sign-in needed').waitFor();
    expect(await oidc.tokenScopes(token)).toBeUndefined();

    // The history kept each step: server, issuer, scopes; never the token or the code.
    await page.locator('nav .nav-item', { hasText: 'History' }).click();
    await page.getByText('Signed out', { exact: true }).first().waitFor();
    const history = await app.service.invoke('queryHistory', {});
    const steps = history.entries
      .map((e) => (e as { entry?: { kind?: string; phase?: string } }).entry)
      .filter((e) => e?.kind === 'sign-in')
      .map((e) => e!.phase)
      .reverse();
    expect(steps).toEqual(['asked', 'opened', 'completed', 'signed-out']);
    expect(JSON.stringify(history)).not.toContain(token);
    expect(problems).toEqual([]);
  });

  it('Cancel in the sign-in dialog opens nothing and leaves the server needing a sign-in', async () => {
    const oidc = await startOidcFixture();
    cleanups.push(() => oidc.close());
    const { app, page, problems } = await suite.open({
      settings: { theme: 'dark', language: 'en' },
      servers: { notes: { url: oidc.server.url } },
    });
    const card = page.locator('.server-card[data-server="notes"]');
    await card.getByRole('button', { name: 'Sign in: notes' }).click();
    await page.getByRole('dialog', { name: 'notes asks you to sign in' }).waitFor();
    await answerDialog(page, 'Cancel');
    expect(app.opened).toEqual([]);
    await card.getByTestId('server-sign-in').getByText('Sign-in needed').waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
