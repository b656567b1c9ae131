// A round with three inputRequests (a form, a confirm-only question and a
// link) through the real web shell: each dialog says where it stands in the
// round ("Question 1 of 3 from kimai, round 1") and which keys are still to
// come, the waiting count counts questions (not calls), the answers reach
// the server together in one retry, and axe finds nothing in light or dark.
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, setTheme, shot } from './app-shell';
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
    const waiting = page.locator('.waiting-badge');

    await dialog.getByText('Which project is this for?').waitFor();
    await expect(position.textContent()).resolves.toBe(
      'Question 1 of 3 from kimai, round 1Still to come: confirm, ticket. The answers are sent together after the last one.',
    );
    await expect(waiting.textContent()).resolves.toBe('3');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await setTheme(app, page, 'light');
    await shot(page, 'app-round-view-light');
    await answerDialog(page, 'Submit');

    await dialog.getByText('Log this time?').waitFor();
    await expect(position.textContent()).resolves.toContain('Question 2 of 3 from kimai, round 1');
    await expect(position.textContent()).resolves.toContain('Still to come: ticket.');
    await expect(waiting.textContent()).resolves.toBe('2');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Accept');

    await dialog.locator('[data-testid="url-full"]').waitFor();
    await expect(position.textContent()).resolves.toBe('Question 3 of 3 from kimai, round 1');
    await expect(waiting.textContent()).resolves.toBe('1');
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Decline');

    const result = page.locator('.call-card').first();
    await expect(result.locator('.result-text').textContent({ timeout: 15_000 })).resolves.toBe(
      'project: accept; confirm: accept; ticket: decline',
    );
    expect(problems).toEqual([]);
  });
});
