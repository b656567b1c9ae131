// The browser comes in through the web shell's private launcher page (issue 9,
// item 1), in real Chromium: the page is opened as the system browser would
// open it (a file:// path), forwards to the shell, and the app then drops the
// token from its address, so the address bar, the tab's history and anything
// that reads location.href hold no key. A reload still works (sessionStorage).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppShell, type AppShell } from './app-shell';
import { buildPrivateRenderer, launchChromium, type LaunchedBrowser } from './paint-latency';

let build: Awaited<ReturnType<typeof buildPrivateRenderer>>;
let launched: LaunchedBrowser;
let app: AppShell | undefined;

beforeAll(async () => {
  [build, launched] = await Promise.all([buildPrivateRenderer(), launchChromium()]);
});
afterAll(async () => {
  await app?.close();
  await launched?.close();
  await build?.remove();
});

describe('the launcher page', () => {
  it('gets Chromium into the app, and the token is gone from the address once the app has read it', async () => {
    app = await startAppShell({ rendererDir: build.dir, settings: { theme: 'light', language: 'en' } });
    const token = new URL(app.shell.url).hash.replace('#token=', '');
    expect(token).toHaveLength(43);
    const page = await launched.browser.newPage();
    await page.goto(pathToFileURL(app.launcherFile).href);
    await page.waitForURL(`http://127.0.0.1:${app.shell.port}/**`);
    await page.waitForSelector('nav .nav-item');
    expect(page.url()).toBe(`http://127.0.0.1:${app.shell.port}/`);
    const seen = await page.evaluate(() => ({
      href: location.href,
      entries: (
        (globalThis as { navigation?: { entries(): Array<{ url: string | null }> } }).navigation?.entries() ?? []
      ).map((e) => e.url ?? ''),
    }));
    expect(seen.href).not.toContain(token);
    expect(seen.entries.join(' ')).not.toContain(token);
    // The page has done its job: a tab came in, so it is deleted.
    expect(existsSync(app.launcherFile)).toBe(false);
    expect(app.shell.launcherFile).toBeUndefined();
    // A reload of this tab keeps working without the token in the address.
    await page.reload();
    await page.waitForSelector('nav .nav-item');
    expect(page.url()).not.toContain(token);
    await page.close();
  });
});
