// MCP Apps benchmark (issue 24 item 6): from a tool's result to its app's first
// paint, beside the plain result's paint, in the same run. Real web shell,
// real Chromium, the apps fixture's show_greeting (a small app). Per call:
// the result text painted in the shell page (the frame after it appears), and
// the app document's first-contentful-paint (Chromium's own paint timing in
// the frame); both as wall-clock times (timeOrigin + now), so the app's figure
// is measured from the same result paint. The app's time covers what the
// host does after the result (openApp: resources/read through the host, the
// document published on the second origin), loading the bridge code, and
// the frame's load to its first paint; its handshake may still be under way.
// Run alone with:
//   npx tsx bench/run.ts 'MCP Apps (Chromium)'
import type { Frame, Page } from 'playwright-core';
import { fixtureCommand } from '../test/fixtures/spawn-fixture';
import { openApp, startAppShell } from '../test/browser/app-shell';
import { buildPrivateRenderer, launchChromium } from '../test/browser/paint-latency';
import type { Figure } from './sections';

const CALLS = 10;
const round = (n: number): number => Number(n.toFixed(1));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall-clock ms of the frame that paints the newest call card's result text (source text: see renderer.bench). */
export function resultPainted(page: Page, cards: number): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const poll = () => {
      const card = document.querySelectorAll('.call-card')[0];
      if (document.querySelectorAll('.call-card').length >= ${cards} && card && card.querySelector('.result-text'))
        return requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now()));
      requestAnimationFrame(poll);
    };
    poll();
  })`) as Promise<number>;
}

/** Wall-clock ms of the app document's first contentful paint, once there is one. */
async function appPainted(page: Page, seen: Set<Frame>): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const frame = page.frames().find((f) => !seen.has(f) && new URL(f.url()).pathname.startsWith('/app/'));
    if (frame) {
      const at = (await frame.evaluate(
        `(() => { const e = performance.getEntriesByName('first-contentful-paint')[0]; return e ? performance.timeOrigin + e.startTime : null; })()`,
      )) as number | null;
      if (at !== null) {
        seen.add(frame);
        return at;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the app never painted');
}

/** Result paint and app first paint for CALLS calls of show_greeting. */
export async function benchApps(): Promise<Figure[]> {
  const [build, launched] = await Promise.all([buildPrivateRenderer(), launchChromium()]);
  const apps = fixtureCommand('apps');
  const shell = await startAppShell({
    rendererDir: build.dir,
    settings: { theme: 'light', language: 'en' },
    servers: { apps: { command: apps.command, args: apps.args } },
  });
  try {
    // A tall viewport: Chromium paints a cross-origin frame only on screen.
    const { page } = await openApp(launched.browser, shell, { viewport: { width: 1180, height: 4000 } });
    await page.locator('.server-card[data-server="apps"][data-status="connected"]').waitFor({ timeout: 30_000 });
    await page.locator('.server-card[data-server="apps"]').getByRole('button', { name: 'Tools' }).click();
    await page.getByRole('button', { name: /^show_greeting/ }).click();
    const seen = new Set<Frame>();
    const resultMs: number[] = [];
    const appMs: number[] = [];
    for (let i = 1; i <= CALLS; i++) {
      const clicked = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
      await page.getByRole('button', { name: 'Call show_greeting' }).click();
      const result = await resultPainted(page, i);
      const app = await appPainted(page, seen);
      resultMs.push(result - clicked);
      appMs.push(app - result);
    }
    return [
      {
        name: `tool result painted after the call click (median of ${CALLS})`,
        value: round(median(resultMs)),
        unit: 'ms',
        goal: null,
      },
      {
        name: `app first paint after the result's paint (median of ${CALLS})`,
        value: round(median(appMs)),
        unit: 'ms',
        goal: null,
      },
      {
        name: `app first paint after the result's paint (max of ${CALLS})`,
        value: round(Math.max(...appMs)),
        unit: 'ms',
        goal: null,
      },
    ];
  } finally {
    await shell.close();
    await launched.close();
    await build.remove();
  }
}
