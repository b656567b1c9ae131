// Issue 24 against an official MCP Apps example, pinned and fetched from npm
// by the test (test/support/official-app-server.ts): the basic React app
// renders beside get-time's result in its sandboxed frame, completes the
// ui/initialize handshake (it leaves "Connecting..."), and its own
// "Get Server Time" call goes through the host and into the history as the
// app's; its "Send Message" is shown and recorded, never sent.
import { describe, expect, it } from 'vitest';
import { axe } from './app-shell';
import { browserSuite } from './browser-suite';
import { officialAppServer } from '../support/official-app-server';

const suite = browserSuite();

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
