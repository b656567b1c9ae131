// Issue 24, an app's links: ui/open-link goes through the host's link consent,
// the same URL dialog a server's URL question gets. The app asking opens
// nothing; the person's click in the host's dialog opens exactly the link the
// host checked, in a new tab (the web shell's 'tab' mode, what `countersign
// web` runs); a decline opens nothing; a look-alike is flagged and takes a
// second step; a javascript: link never gets a dialog. Every outcome is in
// the history. An app that stops waiting for the answer (its SDK's request
// timeout sends notifications/cancelled) does not end the person's question,
// and nothing is recorded for them: only their own click is. Real Chromium, real web shell, the apps fixture server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, stubExampleCom, type AppShell } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const apps = fixtureCommand('apps');
const DOCS = 'https://example.com/docs?from=app';

/**
 * The web shell in 'tab' link mode with the apps fixture and example.com stubbed, every tab the page opens from the
 * start kept in `popups`, and the links app opened from the Tools view.
 */
async function openLinksApp() {
  const opened = await suite.open({
    settings: { theme: 'light', language: 'en' },
    servers: { apps: { command: apps.command, args: apps.args } },
    linkOpening: 'tab',
  });
  const requests = await stubExampleCom(opened.page);
  const popups: Page[] = [];
  opened.page.context().on('page', (p) => popups.push(p));
  await callFromToolsView(opened.page, 'apps', 'link_app');
  return { ...opened, requests, popups, frame: opened.page.frameLocator('[data-testid="app-frame"]') };
}

async function linkEvents(app: AppShell): Promise<Array<[string, string | undefined]>> {
  const { entries } = await app.service.invoke('queryHistory', {});
  return entries
    .flatMap((e) => (e.kind === 'other' && e.entry.kind === 'app' ? [e.entry] : []))
    .filter((e) => e.event.startsWith('link-'))
    .reverse()
    .map((e) => [e.event, e.detail]);
}

describe('an MCP App’s links go through the host’s link consent', () => {
  it('asks in the host’s dialog; a decline opens nothing, a click opens exactly the link, look-alikes are flagged', async () => {
    const { app, page, problems, requests, popups, frame } = await openLinksApp();
    await frame.locator('#docs').waitFor();

    // The app asks: the host's own dialog shows the full link and names the app; nothing is opened or loaded.
    await frame.locator('#docs').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('url-full').textContent()).toBe(DOCS);
    expect(await dialog.getByTestId('origin-app').textContent()).toContain('ui://apps-fixture/links.html');
    expect(await frame.locator('#link').textContent()).toBe('docs:asking');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Decline');
    await expect.poll(() => frame.locator('#link').textContent()).toBe('docs:refused');
    expect(popups).toEqual([]);
    expect(requests).toEqual([]);

    // Asked again, and this time opened: only the click in the dialog opens it, in a new tab, detached.
    await frame.locator('#docs').click();
    await dialog.waitFor();
    expect(popups).toEqual([]);
    const popup = page.waitForEvent('popup');
    await answerDialog(page, 'Open in browser');
    const tab = await popup;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(DOCS);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(requests.map((r) => r.url())).toEqual([DOCS]);
    await tab.close();
    await expect.poll(() => frame.locator('#link').textContent()).toBe('docs:opened');
    // Nothing went through the host's system opener, and no note claims it was answered elsewhere.
    expect(app.opened).toEqual([]);
    expect(await page.locator('.note').count()).toBe(0);

    // A look-alike: the dialog flags it and has no one-click way to open it; declining is the primary button.
    await frame.locator('#lookalike').click();
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Open in browser', exact: true }).count()).toBe(0);
    expect(await dialog.locator('.button-primary').textContent()).toBe('Decline');
    expect(await dialog.textContent()).toContain('xn--');
    await answerDialog(page, 'Decline');
    await expect.poll(() => frame.locator('#link').textContent()).toBe('lookalike:refused');

    // A javascript: link gets no dialog at all: the host refuses it and the panel says so.
    await frame.locator('#script').click();
    await expect.poll(() => frame.locator('#link').textContent()).toBe('script:refused');
    expect(await page.locator('[role="dialog"]').count()).toBe(0);
    expect(await page.locator('[data-notice="link-refused"]').first().textContent()).toContain('javascript:');

    expect(popups.map((p) => p.url())).toEqual([DOCS]);
    const events = await linkEvents(app);
    expect(events.map(([event]) => event)).toEqual(['link-declined', 'link-opened', 'link-declined', 'link-refused']);
    expect(events[1]).toEqual(['link-opened', DOCS]);
    // The app's document comes from the shell's second origin, by design; nothing else may leave the shell.
    const appOrigin = new URL((await page.getByTestId('app-frame').getAttribute('src'))!).origin;
    expect(problems.filter((p) => !p.startsWith(`request left the shell: ${appOrigin}/app/`))).toEqual([]);
  });

  it('an app that stops waiting (its SDK request timeout) leaves the person’s link question as it was', async () => {
    const { app, page, frame } = await openLinksApp();
    await frame.locator('#late').waitFor();
    await frame.locator('#late').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The app sent notifications/cancelled for its ui/open-link, as the App SDK does when its timeout passes.
    await expect.poll(() => frame.locator('#link').textContent()).toBe('late:gave-up');
    // The host does not end the person's question for it, and records nothing as their choice.
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByTestId('url-full').textContent()).toBe(DOCS);
    expect(await linkEvents(app)).toEqual([]);
    // The person may still open it: their click is recorded as theirs; the app, which gave up, gets no answer.
    const popup = page.waitForEvent('popup');
    await answerDialog(page, 'Open in browser');
    await (await popup).close();
    await expect.poll(() => linkEvents(app)).toEqual([['link-opened', DOCS]]);
    await page.locator('[data-notice="link-opened"]').waitFor();
    await page.waitForTimeout(300);
    expect(await frame.locator('#link').textContent()).toBe('late:gave-up');
  });
});
