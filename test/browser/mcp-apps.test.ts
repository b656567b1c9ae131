// Issue 24 in real Chromium through the real web shell: a tool whose
// definition names a ui:// app shows it beside the result, in a sandboxed
// frame on the shell's second origin; the app's tool calls go through the
// host (recorded, questions in native dialogs); what it sends for a model is
// shown as text and recorded; a hostile app cannot leave its frame, reach
// the host or another server, answer a question or flood the host.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, type AppShell } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const apps = fixtureCommand('apps');

async function callTool(page: Page, tool: string): Promise<void> {
  await page.locator('.server-card[data-server="apps"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.locator('.server-card[data-server="apps"]').getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
  await page.getByRole('button', { name: `Call ${tool}` }).click();
}

async function appEntries(app: AppShell) {
  const { entries } = await app.service.invoke('queryHistory', {});
  return entries.flatMap((e) => (e.kind === 'other' && e.entry.kind === 'app' ? [e.entry] : []));
}

/** Call ends not folded into a question item (calls that asked nothing). */
async function callEnds(app: AppShell) {
  const { entries } = await app.service.invoke('queryHistory', {});
  return entries.flatMap((e) => (e.kind === 'other' && e.entry.kind === 'call-end' ? [e.entry] : []));
}

describe('MCP Apps in the Tools view', () => {
  it('shows the app beside the result, hands it the host context, and routes its call through the gate', async () => {
    const { app, page } = await suite.open({
      settings: { theme: 'dark', language: 'en' },
      servers: { apps: { command: apps.command, args: apps.args } },
    });
    await callTool(page, 'show_greeting');
    const panel = page.getByTestId('app-panel');
    await panel.waitFor();
    const frameEl = page.getByTestId('app-frame');
    // The sandbox: scripts only, and a document from another origin than the shell's.
    expect(await frameEl.getAttribute('sandbox')).toBe('allow-scripts');
    const src = (await frameEl.getAttribute('src')) ?? '';
    expect(new URL(src).origin).not.toBe(`http://127.0.0.1:${app.shell.port}`);
    expect(new URL(src).hostname).toBe('127.0.0.1');

    const frame = page.frameLocator('[data-testid="app-frame"]');
    await expect.poll(() => frame.locator('#result').textContent()).toBe('result: greeting says hello');
    expect(await frame.locator('#theme').textContent()).toBe('dark');
    expect(await frame.locator('#locale').textContent()).toBe('en');
    expect(await frame.locator('#mode').textContent()).toBe('inline');
    // The size change the app asked for.
    await expect.poll(async () => (await frameEl.boundingBox())?.height).toBe(333);
    // Theme changes reach the app.
    await app.service.invoke('updateSettings', { theme: 'light' });
    await expect.poll(() => frame.locator('#theme').textContent()).toBe('light');

    // Its ui/message is shown as text (markup and all), marked as not sent.
    const notice = page.locator('[data-notice="message"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('<img src=x onerror=alert(1)> hello model');
    expect(await notice.textContent()).toContain('not sent');

    // The document was served once: loading its address again gets nothing.
    expect((await fetch(src)).status).toBe(404);

    // A call from the app asks its question in the native dialog; the human answers there.
    await frame.locator('#ask').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Proceed with the step?').waitFor();
    expect(await frame.locator('#answer').textContent()).toBe('asking');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Decline');
    await expect.poll(() => frame.locator('#answer').textContent()).toBe('answer: step decline');

    // History: the app was shown for the call, its message kept, and its call recorded as the app's.
    const events = await appEntries(app);
    expect(events.map((e) => e.event).sort()).toEqual(['message', 'shown']);
    const shown = events.find((e) => e.event === 'shown')!;
    expect(shown).toMatchObject({
      server: 'apps',
      tool: 'show_greeting',
      resourceUri: 'ui://apps-fixture/greeting.html',
    });
    const greetingEnd = (await callEnds(app)).find((e) => e.name === 'show_greeting');
    expect(greetingEnd?.callId).toBe(shown.callId);
    // The app's call and its question: one history item, the app named as what made the call.
    await expect
      .poll(async () => {
        const { entries } = await app.service.invoke('queryHistory', { mode: 'question' });
        const item = entries.find((e) => e.kind === 'question');
        return item?.kind === 'question'
          ? [item.question.call.name, item.question.call.agent, item.answer?.action, item.callEnd?.outcome]
          : null;
      })
      .toEqual(['confirm_step', 'MCP App of show_greeting', 'decline', 'complete']);
  });

  it('keeps a hostile app in its frame: no navigation, popups, parent, host API, other tools, links or answers', async () => {
    const { app, page } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { apps: { command: apps.command, args: apps.args } },
    });
    const shellUrl = page.url();
    const popups: string[] = [];
    page.context().on('page', (p) => popups.push(p.url()));
    await callTool(page, 'hostile_app');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Proceed with the step?').waitFor();
    const report = page.locator('[data-notice="model-context"]', { hasText: 'REPORT' });
    await report.waitFor();
    const text = (await report.textContent()) ?? '';
    expect(text).toContain('top:SecurityError');
    expect(text).toContain('open:null');
    expect(text).toContain('parent-dom:SecurityError');
    expect(text).toContain('storage:SecurityError');
    expect(text).toContain('fetch:TypeError');
    expect(text).toMatch(/ws:(error|SecurityError)/);
    expect(text).toContain('model-only:refused');
    expect(text).toContain('other-server:refused');
    expect(text).toContain('link:refused');
    expect(text).toContain('violations:some');
    // The javascript: link is refused by the host without a dialog (the one dialog is the question's), shown as text.
    expect(await page.locator('[data-notice="link-refused"]').textContent()).toContain(
      'javascript:alert(document.domain)',
    );
    expect(app.opened).toEqual([]);
    // The smuggled directive never reached the policy: the frame's document ran no eval either way, and the
    // shell page is where it was, with no window opened.
    expect(page.url()).toBe(shellUrl);
    expect(popups).toEqual([]);

    // The forged answers did nothing: the question still waits for the human.
    expect(await page.locator('[role="dialog"]').count()).toBe(1);
    const pending = await app.service.invoke('listQuestions', {});
    expect(pending).toHaveLength(1);
    await answerDialog(page, 'Accept');
    await page.locator('[data-notice="model-context"]', { hasText: 'QUESTION step accept' }).waitFor();
    const { entries } = await app.service.invoke('queryHistory', { mode: 'question' });
    const answered = entries.find((e) => e.kind === 'question');
    expect(answered?.kind === 'question' && answered.answer?.decidedBy).toBe('human');
  });

  it('closes an app that floods the host, and the history keeps a bounded record', async () => {
    const { app, page } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { apps: { command: apps.command, args: apps.args } },
    });
    await callTool(page, 'flood_app');
    await page.getByTestId('app-closed').waitFor();
    expect(await page.getByTestId('app-frame').count()).toBe(0);
    const events = await appEntries(app);
    expect(events.filter((e) => e.event === 'closed').length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.event === 'message').length).toBeLessThanOrEqual(50);
  });
});
