// Issue 24 against the official MCP Apps examples, pinned and fetched from npm
// by the test (test/support/official-app-server.ts):
// - basic-react renders beside get-time's result in its sandboxed frame,
//   completes the ui/initialize handshake (it leaves "Connecting..."), and its
//   own "Get Server Time" call goes through the host and into the history as
//   the app's; its "Send Message" is shown and recorded, never sent;
// - basic-vanillajs gets get-time's result (which the bridge sends only once
//   the app said it is initialized), paints, its own call is the app's, and
//   its "Open Link" brings up the host's link dialog, where a decline opens
//   nothing;
// - system-monitor draws get-system-info's result and then polls its app-only
//   poll-system-stats tool, every call through the host and in the history.
import { hostname } from 'node:os';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { answerDialog, axe, type AppShell } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';
import { officialAppServer } from '../support/official-app-server';

const suite = browserSuite();

/** The agents of the history's call ends of `tool` (null: the person's own call from the Tools view). */
async function callAgents(app: AppShell, tool: string): Promise<Array<string | null>> {
  const { entries } = await app.service.invoke('queryHistory', {});
  return entries.flatMap((e) =>
    e.kind === 'other' && e.entry.kind === 'call-end' && e.entry.name === tool ? [e.entry.agent ?? null] : [],
  );
}

/**
 * The app document's first contentful paint, as Chromium's own paint timing in the frame reports it (ms after the
 * document's start), or null while it has painted nothing with content.
 */
async function appFirstPaint(page: Page): Promise<number | null> {
  return appFrame(page).evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
}

/** The app's frame (its document is served under /app/ on the shell's second origin). */
function appFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f !== page.mainFrame() && new URL(f.url()).pathname.startsWith('/app/'));
  if (!frame) throw new Error('no app frame on the page');
  return frame;
}

describe('the official basic-react example app', () => {
  it('renders, calls its tool through the host, and has its message recorded, not sent', async () => {
    const react = await officialAppServer('@modelcontextprotocol/server-basic-react');
    const { app, page } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { react: { command: react.command, args: react.args } },
    });
    await page.locator('.server-card[data-server="react"][data-status="connected"]').waitFor({ timeout: 30_000 });
    await page.locator('.server-card[data-server="react"]').getByRole('button', { name: 'Tools' }).click();
    await page.getByRole('button', { name: /^get-time/ }).click();
    await page.getByRole('button', { name: 'Call get-time' }).click();

    const frame = page.frameLocator('[data-testid="app-frame"]');
    const getTime = frame.getByRole('button', { name: 'Get Server Time' });
    await getTime.waitFor({ timeout: 30_000 });
    expect(await frame.getByText('Connecting...').count()).toBe(0);
    expect(await page.getByTestId('app-frame').getAttribute('sandbox')).toBe('allow-scripts');

    await getTime.click();
    await expect
      .poll(async () => {
        const { entries } = await app.service.invoke('queryHistory', {});
        return entries.filter((e) => e.kind === 'other' && e.entry.kind === 'call-end' && e.entry.name === 'get-time')
          .length;
      })
      .toBe(2);
    const { entries } = await app.service.invoke('queryHistory', {});
    const agents = entries.flatMap((e) =>
      e.kind === 'other' && e.entry.kind === 'call-end' && e.entry.name === 'get-time' ? [e.entry.agent ?? null] : [],
    );
    expect(agents.sort()).toEqual(['MCP App of get-time', null].sort());

    await frame.getByRole('button', { name: 'Send Message' }).click();
    await page.locator('[data-notice="message"]').waitFor();
    await expect
      .poll(async () => {
        const { entries: all } = await app.service.invoke('queryHistory', {});
        return all.some((e) => e.kind === 'other' && e.entry.kind === 'app' && e.entry.event === 'message');
      })
      .toBe(true);
    expect(await axe(page)).toEqual([]);
  });
});

describe('the official basic-vanillajs example app', () => {
  it('gets the result after its handshake, paints, calls through the host, and asks for links in the host’s dialog', async () => {
    const vanilla = await officialAppServer('@modelcontextprotocol/server-basic-vanillajs');
    const { app, page } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { vanilla: { command: vanilla.command, args: vanilla.args } },
      linkOpening: 'tab',
    });
    const popups: Page[] = [];
    page.context().on('page', (p) => popups.push(p));
    await callFromToolsView(page, 'vanilla', 'get-time');
    const frame = page.frameLocator('[data-testid="app-frame"]');
    const time = frame.locator('#server-time');
    // The result reaches the app only after ui/initialize and its initialized notification.
    await expect.poll(() => time.textContent(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Chromium paints a cross-origin frame only on screen (see the system-monitor test).
    await page.getByTestId('app-frame').scrollIntoViewIfNeeded();
    await expect.poll(() => appFirstPaint(page)).toBeGreaterThan(0);
    expect(await page.getByTestId('app-frame').getAttribute('sandbox')).toBe('allow-scripts');

    const first = await time.textContent();
    await frame.getByRole('button', { name: 'Get Server Time' }).click();
    await expect.poll(() => callAgents(app, 'get-time')).toHaveLength(2);
    expect((await callAgents(app, 'get-time')).sort()).toEqual(['MCP App of get-time', null].sort());
    await expect.poll(() => time.textContent()).not.toBe(first);

    // Its Open Link: the host's own dialog with the full link; declining opens nothing and is on record.
    await frame.getByRole('button', { name: 'Open Link' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('url-full').textContent()).toBe('https://modelcontextprotocol.io/');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Decline');
    await expect
      .poll(async () => {
        const { entries } = await app.service.invoke('queryHistory', {});
        return entries.flatMap((e) => (e.kind === 'other' && e.entry.kind === 'app' ? [e.entry.event] : []));
      })
      .toContain('link-declined');
    expect(popups).toEqual([]);
    expect(app.opened).toEqual([]);
  });
});

describe('the official system-monitor example app', () => {
  it('draws the system info it was given and polls its app-only tool through the host', async () => {
    const monitor = await officialAppServer('@modelcontextprotocol/server-system-monitor');
    const { app, page } = await suite.open({
      settings: { theme: 'dark', language: 'en' },
      servers: { monitor: { command: monitor.command, args: monitor.args } },
    });
    await callFromToolsView(page, 'monitor', 'get-system-info');
    const frame = page.frameLocator('[data-testid="app-frame"]');
    // What get-system-info returned (this machine's name), drawn by the app: the result came after the handshake.
    await expect.poll(() => frame.locator('#info-hostname').textContent(), { timeout: 30_000 }).toBe(hostname());
    expect(await frame.locator('#info-platform').textContent()).toContain(process.platform);
    // It paints: its CPU chart holds drawn pixels. Its panel sits below the long result: Chromium paints (and runs
    // animation frames in) a cross-origin frame only once it is on screen, so it is scrolled into view first.
    await page.getByTestId('app-frame').scrollIntoViewIfNeeded();
    await expect.poll(() => appFirstPaint(page)).toBeGreaterThan(0);
    await expect
      .poll(() =>
        appFrame(page).evaluate(() => {
          const canvas = document.getElementById('cpu-chart') as HTMLCanvasElement | null;
          const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
          let drawn = 0;
          for (let k = 3; k < pixels.length; k += 4) if (pixels[k]! > 0) drawn++;
          return drawn;
        }),
      )
      .toBeGreaterThan(100);
    // It polls poll-system-stats (visible to apps only) on its own: each poll is a call through the host, the app's.
    await expect.poll(() => callAgents(app, 'poll-system-stats'), { timeout: 20_000 }).toHaveLength(2);
    expect(new Set(await callAgents(app, 'poll-system-stats'))).toEqual(new Set(['MCP App of get-system-info']));
    await expect.poll(() => frame.locator('#memory-percent').textContent()).toMatch(/^\d+%$/);
    expect(await axe(page)).toEqual([]);
  });
});
