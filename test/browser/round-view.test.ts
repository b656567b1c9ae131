// A round with three inputRequests (a form, a confirm-only question and a
// link) through the real web shell: each dialog says where it stands in the
// round ("Question 1 of 3 from kimai, round 1") and which keys are still to
// come, the waiting count counts questions (not calls), Back returns to an
// earlier question with every answer kept (and nothing sent meanwhile), the
// answers reach the server together in one retry, and axe finds nothing in
// light or dark.
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, pressUntil, setTheme, shot } from './app-shell';
import { browserSuite, callFromToolsView } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');

describe('a round of several questions', () => {
  it('says "Question i of n", names what is still to come, counts questions, sends the answers together', async () => {
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { kimai: { command: modern.command, args: modern.args } },
    });
    await callFromToolsView(page, 'kimai', 'three_questions');

    const dialog = page.getByRole('dialog');
    const position = dialog.getByTestId('round-position');
    // The round's questions reach the page one event each, so the count may trail the first dialog by a
    // moment (a CI run at high load read '1' once): poll it rather than read it once.
    const waiting = page.locator('.waiting-badge');
    // Screenshots show the answer buttons as they are once active, not during their arming moment.
    const armed = () => page.waitForSelector('[role="dialog"] [data-arming]', { state: 'detached' });

    await dialog.getByText('Which project is this for?').waitFor();
    // "Still to come" names a later question by its key until that question itself has reached the page,
    // then by what it asks (a loaded CI run read "confirm; ticket" once): poll it too.
    await expect
      .poll(() => position.textContent())
      .toBe(
        'Question 1 of 3 from kimai, round 1Still to come: Log this time?; example.com. The answers are sent together after the last one.',
      );
    await expect.poll(() => waiting.textContent()).toBe('3');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await setTheme(app, page, 'light');
    await armed();
    await shot(page, 'app-round-view-light');
    // The first question has no way back; pick a project that is not the default.
    await expect(dialog.getByRole('button', { name: 'Back' }).count()).resolves.toBe(0);
    await dialog.getByLabel('ops', { exact: true }).check();
    await answerDialog(page, 'Next');

    await dialog.getByText('Log this time?').waitFor();
    await expect(position.textContent()).resolves.toContain('Question 2 of 3 from kimai, round 1');
    await expect(position.textContent()).resolves.toContain('Still to come: example.com.');
    await expect.poll(() => waiting.textContent()).toBe('2');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Accept, next');

    await dialog.locator('[data-testid="url-full"]').waitFor();
    await expect(position.textContent()).resolves.toBe('Question 3 of 3 from kimai, round 1');
    await expect.poll(() => waiting.textContent()).toBe('1');
    expect(await axe(page)).toEqual([]);
    await armed();
    await shot(page, 'app-round-view-back-light');

    // Back twice: the earlier answers are still there, and nothing has gone to the server.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByText('Log this time?').waitFor();
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByText('Which project is this for?').waitFor();
    await expect(position.textContent()).resolves.toContain('Question 1 of 3 from kimai, round 1');
    await expect(dialog.getByLabel('ops', { exact: true }).isChecked()).resolves.toBe(true);
    await expect.poll(() => waiting.textContent()).toBe('1');
    await expect(page.locator('.call-card[data-call-state="running"]').count()).resolves.toBe(1);
    expect(await axe(page)).toEqual([]);
    // Change the first answer; the second is kept as it was.
    await dialog.getByLabel('cs', { exact: true }).check();
    await answerDialog(page, 'Next');
    await dialog.getByText('Log this time?').waitFor();
    await answerDialog(page, 'Accept, next');
    await dialog.locator('[data-testid="url-full"]').waitFor();
    await answerDialog(page, 'Decline');

    const result = page.locator('.call-card').first();
    await expect(result.locator('.result-text').textContent({ timeout: 15_000 })).resolves.toBe(
      'project: accept {"project":"cs"}; confirm: accept; ticket: decline',
    );
    expect(problems).toEqual([]);
  });
  it('keeps a link question "opened" when the human goes back past it: no second consent, no second opening', async () => {
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { kimai: { command: modern.command, args: modern.args } },
    });
    await callFromToolsView(page, 'kimai', 'three_questions');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Which project is this for?').waitFor();
    await answerDialog(page, 'Next');
    await dialog.getByText('Log this time?').waitFor();
    await answerDialog(page, 'Accept, next');
    await dialog.locator('[data-testid="url-full"]').waitFor();
    await pressUntil(page, 'Open in browser', '[data-testid="url-waiting"]');
    expect(app.opened).toEqual(['https://example.com/tickets/42']);

    // Back to the confirm question, and forward again by answering it.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByText('Log this time?').waitFor();
    await answerDialog(page, 'Accept, next');
    await dialog.locator('[data-testid="url-full"]').waitFor();
    await expect(dialog.getByTestId('url-waiting').isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('button', { name: 'Open in browser' }).count()).resolves.toBe(0);
    expect(await axe(page)).toEqual([]);
    expect(app.opened).toHaveLength(1);
    await answerDialog(page, 'I’m done, send 3 answers');

    const result = page.locator('.call-card').first();
    await expect(result.locator('.result-text').textContent({ timeout: 15_000 })).resolves.toBe(
      'project: accept {"project":"cs"}; confirm: accept; ticket: accept',
    );
    expect(problems).toEqual([]);
  });
});
