// The hooks every web-shell browser test file needs, registered once: one
// private renderer build and one Chromium per file, and every app shell and
// page a test opened closed after it, so no test leaks into the next.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openApp, startAppShell, type AppShell, type AppShellOptions } from './app-shell';
import { buildPrivateRenderer, launchChromium, type LaunchedBrowser } from './paint-latency';

/** An app shell with the app open in a fresh page. */
export interface OpenedApp {
  app: AppShell;
  page: Page;
  /** Console errors and failed requests the page reported. */
  problems: string[];
}

/** Call at the top of a test file; `open` starts an app shell on the file's build and opens it. */
export function browserSuite(): {
  open(options: Omit<AppShellOptions, 'rendererDir'>): Promise<OpenedApp>;
  /** The file's Chromium, for pages other than the app (a sign-in page the "system browser" loads). */
  browser(): LaunchedBrowser['browser'];
} {
  let build: Awaited<ReturnType<typeof buildPrivateRenderer>> | undefined;
  let launched: LaunchedBrowser | undefined;
  const running: AppShell[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    [build, launched] = await Promise.all([buildPrivateRenderer(), launchChromium()]);
  });
  afterAll(async () => {
    await launched?.close();
    await build?.remove();
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
    for (const app of running.splice(0)) await app.close();
  });

  return {
    browser() {
      if (!launched) throw new Error('browserSuite().browser runs inside a test, after beforeAll');
      return launched.browser;
    },
    async open(options) {
      if (!build || !launched) throw new Error('browserSuite().open runs inside a test, after beforeAll');
      const app = await startAppShell({ ...options, rendererDir: build.dir });
      running.push(app);
      const { page, problems } = await openApp(launched.browser, app);
      pages.push(page);
      return { app, page, problems };
    },
  };
}

/** From the Servers view: wait for the server, open its tools, pick the tool and call it. */
export async function callFromToolsView(page: Page, server: string, tool: string): Promise<void> {
  await page.locator(`.server-card[data-server="${server}"][data-status="connected"]`).waitFor({ timeout: 30_000 });
  await page.locator(`.server-card[data-server="${server}"]`).getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
  await page.getByRole('button', { name: `Call ${tool}` }).click();
}
