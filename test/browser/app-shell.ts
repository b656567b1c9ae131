// The real app in Chromium through the real web shell, for the app-frame and
// History tests: a HostService over a temporary data folder (with the history
// journal), startWebShell on 127.0.0.1:0, and the printed URL opened in a
// page. Only the system browser is replaced: the shell's opener and the
// service's openExternal record the URLs they were asked to open.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import type { ServerEntry } from '../../electron/core/config/server-config';
import { HostService } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';
import type { LinkOpening } from '../../electron/core/service/queue-prompter';
import { startWebShell, type WebShell } from '../../electron/web/web-shell';
import { repoRoot } from './paint-latency';
import { screenshotDir } from './screenshot-dir';

export { screenshotDir };
export const AXE_PATH = join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js');

/** A running shell over a real service. */
export interface AppShell {
  service: HostService;
  shell: WebShell;
  dataDir: string;
  /** The URL the shell printed (its launcher page, "opened in the system browser", forwards there). */
  printedUrl: string;
  /** The launcher page the shell handed the "system browser" (removed once a tab came in). */
  launcherFile: string;
  /** Links the service was asked to open (question consent). */
  opened: string[];
  close(): Promise<void>;
}

/** Options: servers for a fresh servers.json, an existing data folder (with a pre-filled journal), settings. */
export interface AppShellOptions {
  rendererDir: string;
  servers?: Record<string, ServerEntry>;
  dataDir?: string;
  settings?: Parameters<HostService['invoke']>[1];
  /** The host's request timeout (shrunk so a test need not wait out the SDK's 60 s). */
  requestTimeoutMs?: number;
  /** Make the "system browser" fail, as the web shell's opener does without a desktop. */
  openerFails?: string;
  /** What the "system browser" does with a link it was handed (after recording it), e.g. load it in a page. */
  onOpen?: (url: string) => void;
  /** Where consented links open: 'tab' is what `countersign web` runs; the default stands in for the desktop app. */
  linkOpening?: LinkOpening;
}

/** Starts the service (connecting to every server) and the shell, the way `countersign web` does. */
export async function startAppShell(options: AppShellOptions): Promise<AppShell> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'countersign-app-')));
  const history = await JournalHistory.open(join(dataDir, 'history'));
  const opened: string[] = [];
  const service = await HostService.create({
    dataDir,
    history,
    openExternal: async (url) => {
      if (options.openerFails) throw new Error(options.openerFails);
      opened.push(url);
      options.onOpen?.(url);
    },
    firstStartServers: options.servers ?? {},
    connectOnStart: true,
    // As `countersign web` does: the shell's page frames MCP Apps.
    rendersApps: true,
    ...(options.linkOpening ? { linkOpening: options.linkOpening } : {}),
    pacingDelayMs: 20,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  service.log = () => undefined;
  if (options.settings) await service.invoke('updateSettings', options.settings);
  const printed: string[] = [];
  const shell = await startWebShell({
    service,
    port: 0,
    rendererDir: options.rendererDir,
    openBrowser: true,
    opener: async (url) => void printed.push(url),
    log: () => undefined,
  });
  // The "system browser" was handed the launcher page, which forwards to the URL.
  if (printed.length !== 1 || !(await readFile(printed[0]!, 'utf8')).includes(`url=${shell.url}`))
    throw new Error(`the shell opened ${JSON.stringify(printed)}, not a launcher page for its URL`);
  return {
    service,
    shell,
    dataDir,
    printedUrl: shell.url,
    launcherFile: printed[0]!,
    opened,
    async close() {
      await shell.close();
      await service.close();
      // Retried (a CI run once saw ENOTEMPTY here): a file landing just as the folder goes. A write that
      // keeps coming after close still fails the test once the retries are spent.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/** A page on the app that collects uncaught errors, CSP reports and requests that leave the shell. */
export async function openApp(
  browser: Browser,
  app: AppShell,
  options: { viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1180, height: 800 },
    locale: options.locale ?? 'en-US',
    acceptDownloads: true,
  });
  const problems: string[] = [];
  const origin = `http://127.0.0.1:${app.shell.port}`;
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text()))
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith(origin.replace('http:', 'ws:')) && !url.startsWith('blob:'))
      problems.push(`request left the shell: ${url}`);
  });
  await page.goto(app.printedUrl);
  await page.waitForSelector('nav .nav-item');
  return { page, problems };
}

/** Runs axe-core (with colour contrast) on the page; the violations, one line each. */
export async function axe(page: Page): Promise<string[]> {
  // The shell serves only the renderer, and the CSP refuses inline scripts: axe goes in through the
  // debugging protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE_PATH, 'utf8'));
  return page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (c: Document) => Promise<{
            violations: Array<{ id: string; nodes: Array<{ target: string[]; failureSummary?: string }> }>;
          }>;
        };
      }
    ).axe.run(document);
    return result.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join('; ')}`,
    );
  });
}

/** A screenshot (for docs/screenshots under `npm run docs`), once the frame has settled. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/** Switches the theme through the host (every window follows settingsChanged) and waits for the page to apply it. */
export async function setTheme(app: AppShell, page: Page, theme: 'light' | 'dark'): Promise<void> {
  await app.service.invoke('updateSettings', { theme });
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

/**
 * Presses an answer button of the question dialog. Answer buttons ignore
 * clicks for a moment after a dialog appears (so a click meant for something
 * else cannot answer), so this clicks until the dialog has gone, waiting on
 * that rather than on a clock. A second click never answers twice: the
 * queue sends one answer per question.
 */
export async function answerDialog(page: Page, button: string): Promise<void> {
  const dialog = page.locator('[role="dialog"]');
  const id = await dialog.getAttribute('data-question-id');
  for (let i = 0; i < 40; i++) {
    await dialog.getByRole('button', { name: button, exact: true }).click({ timeout: 5000 });
    const gone = await page
      .waitForSelector(`[data-question-id="${id}"]`, { state: 'detached', timeout: 250 })
      .then(() => true)
      .catch(() => false);
    if (gone) return;
  }
  throw new Error(`the dialog did not take "${button}"`);
}

/**
 * Presses Open in browser until it takes (answer buttons ignore clicks for a
 * moment after a dialog appears), then waits for the waiting state: the
 * button goes away the moment the host took the consent.
 */
export async function consentToSignIn(page: Page): Promise<void> {
  const dialog = page.locator('[role="dialog"]');
  const open = dialog.getByRole('button', { name: 'Open in browser', exact: true });
  for (let i = 0; i < 40 && (await open.count()) > 0; i++) {
    await open.click({ timeout: 5000 }).catch(() => undefined);
    await dialog
      .getByTestId('sign-in-waiting')
      .waitFor({ timeout: 250 })
      .catch(() => undefined);
  }
  await dialog.getByTestId('sign-in-waiting').waitFor();
}

/** Like answerDialog, for a button that keeps the dialog open but changes it (Open in browser). */
export async function pressUntil(page: Page, button: string, until: string): Promise<void> {
  const dialog = page.locator('[role="dialog"]');
  for (let i = 0; i < 40; i++) {
    await dialog.getByRole('button', { name: button, exact: true }).click({ timeout: 5000 });
    const done = await page
      .waitForSelector(until, { timeout: 250 })
      .then(() => true)
      .catch(() => false);
    if (done) return;
  }
  throw new Error(`"${button}" never led to ${until}`);
}

/**
 * Presses Add in an import review until the review has gone. Add, like an answer button, ignores clicks for a
 * moment after the dialog appears, and reads as busy while the import is written.
 */
export async function confirmImport(page: Page, button: string): Promise<void> {
  const review = page.locator('[role="dialog"]');
  for (let i = 0; i < 40 && (await review.count()) > 0; i++) {
    await review
      .getByRole('button', { name: button, exact: true })
      .click({ timeout: 1000 })
      .catch(() => undefined);
    await review.waitFor({ state: 'detached', timeout: 250 }).catch(() => undefined);
  }
  if ((await review.count()) > 0) throw new Error(`the import review did not take "${button}"`);
}

/** Serves every https://example.com page with a stub (the machine has no network), keeping each request. */
export async function stubExampleCom(page: Page): Promise<Request[]> {
  const seen: Request[] = [];
  await page.context().route('https://example.com/**', async (route) => {
    seen.push(route.request());
    await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>example</title><p>stub</p>' });
  });
  return seen;
}
