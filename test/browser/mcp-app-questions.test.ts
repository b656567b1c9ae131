// Issue 24 item 3 (SEP-3118, experimental) in real Chromium through the real
// web shell: a form question that names the server's app is drawn by that app
// inside the host's dialog, while the dialog's own header (server, tool,
// round) and its Cancel, Decline and Accept stay outside the app's frame. The
// app only proposes values: they are checked against the question's schema
// and shown by the host, and only the person's Accept sends them. Every
// failure (bad values, a missing resource, an app that never starts or cannot
// take a question) hands over to the native form and says so; a hostile app
// gets nothing; with the setting off the native form is all there is.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, shot, type AppShell } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const apps = fixtureCommand('apps');

async function open(appQuestions: boolean) {
  return suite.open({
    settings: { theme: 'light', language: 'en', appQuestions },
    servers: { apps: { command: apps.command, args: apps.args } },
  });
}

/** Starts app_question with the named app (from the service, as an agent's call would) and waits for its dialog. */
async function ask(app: AppShell, page: Page, which: string): Promise<Locator> {
  await page.locator('.server-card[data-server="apps"][data-status="connected"]').waitFor({ timeout: 30_000 });
  void app.service
    .invoke('callTool', { server: 'apps', tool: 'app_question', args: { app: which } })
    .catch(() => undefined);
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Pick a size for the order').waitFor({ timeout: 30_000 });
  return dialog;
}

/** The question's history item once it has an answer: the answer entry as recorded. */
async function answered(app: AppShell) {
  let answer: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      const { entries } = await app.service.invoke('queryHistory', { mode: 'question' });
      const item = entries.find((e) => e.kind === 'question');
      answer =
        item?.kind === 'question' && item.callEnd ? (item.answer as unknown as Record<string, unknown>) : undefined;
      return answer !== undefined;
    })
    .toBe(true);
  return answer!;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

const FRAME = '[data-testid="app-question-frame"]';

describe('a question drawn by the server’s app (SEP-3118)', () => {
  it('draws the form inside the dialog; the host checks, shows and sends only what the person accepts', async () => {
    const { app, page } = await open(true);
    const dialog = await ask(app, page, 'form');
    const frameEl = dialog.locator(FRAME);
    await frameEl.waitFor();
    expect(await frameEl.getAttribute('sandbox')).toBe('allow-scripts');
    expect(new URL((await frameEl.getAttribute('src')) ?? '').origin).not.toBe(`http://127.0.0.1:${app.shell.port}`);
    const frame = page.frameLocator(FRAME);
    // The app got the question as the server asked it, and the host said it can forward questions.
    await expect.poll(() => frame.locator('#asked').textContent()).toBe('asked: Pick a size for the order [size,note]');
    expect(await frame.locator('#host-caps').textContent()).toBe('host elicitation: yes');

    // The host's lines and buttons are the dialog's, outside the frame's box: above it, and below it.
    const header = dialog.locator('.dialog-header');
    expect(await header.locator('.origin-name').textContent()).toBe('app_question');
    expect(await header.textContent()).toContain('apps');
    expect(await header.locator('.origin-round').textContent()).toContain('1');
    const frameBox = await box(frameEl);
    const headerBox = await box(header);
    expect(headerBox.y + headerBox.height).toBeLessThanOrEqual(frameBox.y);
    const buttons = ['Cancel', 'Decline', 'Accept'].map((name) =>
      dialog.locator('.dialog-footer').getByRole('button', { name, exact: true }),
    );
    for (const b of buttons) expect((await box(b)).y).toBeGreaterThanOrEqual(frameBox.y + frameBox.height);
    expect(await frame.locator('button', { hasText: 'Accept' }).count()).toBe(0);

    // Before a proposal, Accept does nothing.
    const accept = buttons[2]!;
    await expect.poll(() => accept.getAttribute('aria-disabled')).toBe('true');
    await accept.click({ force: true });
    expect(await app.service.invoke('listQuestions', {})).toHaveLength(1);
    expect(await dialog.getByTestId('app-proposal-none').textContent()).toContain('Nothing yet');

    // The app suggests declining: a note, nothing sent.
    await frame.locator('#decline').click();
    await expect.poll(() => dialog.getByTestId('app-proposal-none').textContent()).toContain('suggests declining');
    expect(await app.service.invoke('listQuestions', {})).toHaveLength(1);

    // The app proposes: the host shows the checked values as its own text, outside the frame.
    await frame.locator('#size').selectOption('L');
    await frame.locator('#propose').click();
    const proposal = dialog.getByTestId('app-proposal');
    await expect.poll(() => proposal.locator('[data-field="size"] dd').textContent()).toBe('L');
    expect(await proposal.locator('[data-field="note"] dd').textContent()).toBe('from the app');
    expect(await app.service.invoke('listQuestions', {})).toHaveLength(1);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'app-question-dialog');

    await answerDialog(page, 'Accept');
    const answer = await answered(app);
    expect(answer).toMatchObject({
      action: 'accept',
      decidedBy: 'human',
      content: { size: 'L', note: 'from the app' },
      drawnByApp: 'ui://apps-fixture/question-form.html',
    });
  });

  it('falls back to the native form, saying why, when the app proposes values that do not fit', async () => {
    const { app, page } = await open(true);
    const dialog = await ask(app, page, 'bad');
    const note = dialog.getByTestId('app-question-fallback');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toContain('do not fit the form');
    expect(await dialog.locator(FRAME).count()).toBe(0);
    expect(await axe(page)).toEqual([]);
    await shot(page, 'app-question-fallback');
    // The native form, from scratch: nothing of the app's values in it.
    await dialog.getByRole('radio', { name: 'S', exact: true }).check();
    await answerDialog(page, 'Submit');
    const answer = await answered(app);
    expect(answer).toMatchObject({ action: 'accept', content: { size: 'S' } });
    expect(answer.drawnByApp).toBeUndefined();
  });

  // One test per case, each in its own time: together, on a loaded 2-core machine, they took half the timeout.
  it.each([
    ['missing', 'could not be loaded'],
    ['incapable', 'does not say it can draw a question'],
    ['flood', 'more than 10 proposals in 10 s'],
    ['silent', 'did not start within 8 s'],
  ])('falls back to the native form from the %s app, saying why (%s)', async (which, reason) => {
    const { app, page } = await open(true);
    const dialog = await ask(app, page, which);
    const note = dialog.getByTestId('app-question-fallback');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent(), which).toContain(reason);
    expect(await dialog.getByRole('radio').count(), which).toBe(3);
    await answerDialog(page, 'Cancel');
    expect((await answered(app)).action, which).toBe('cancel');
  });

  it('gives a hostile app nothing: forged answers, clicks on the host and its own proposal send nothing', async () => {
    const { app, page } = await open(true);
    const shellUrl = page.url();
    const dialog = await ask(app, page, 'hostile');
    const frame = page.frameLocator(FRAME);
    await expect
      .poll(() => frame.locator('#report').textContent(), { timeout: 20_000 })
      .toBe('click:SecurityError top:SecurityError tools:refused link:refused');
    // Its valid proposal is shown, not sent: the question still waits for the person, nothing is in the history.
    await expect
      .poll(() => dialog.getByTestId('app-proposal').locator('[data-field="size"] dd').textContent())
      .toBe('L');
    expect(await app.service.invoke('listQuestions', {})).toHaveLength(1);
    const { entries } = await app.service.invoke('queryHistory', { mode: 'question' });
    expect(entries.find((e) => e.kind === 'question' && e.answer)).toBeUndefined();
    expect(page.url()).toBe(shellUrl);
    expect(app.opened).toEqual([]);
    await answerDialog(page, 'Decline');
    const answer = await answered(app);
    expect(answer.action).toBe('decline');
    expect(answer.content).toBeUndefined();
  });

  it('with the setting off, draws the native form and loads no app', async () => {
    const { app, page } = await open(false);
    const dialog = await ask(app, page, 'form');
    await dialog.getByRole('radio', { name: 'M', exact: true }).waitFor();
    expect(await dialog.locator(FRAME).count()).toBe(0);
    expect(await dialog.getByTestId('app-question-fallback').count()).toBe(0);
    const [question] = await app.service.invoke('listQuestions', {});
    await expect(app.service.invoke('openQuestionApp', { questionId: question!.id })).rejects.toThrow(/off/);
    await dialog.getByRole('radio', { name: 'M', exact: true }).check();
    await answerDialog(page, 'Submit');
    expect(await answered(app)).toMatchObject({ action: 'accept', content: { size: 'M' } });
  });
});
