// Issue 11 §5 in real Chromium through the web shell: a question form opened
// over the Tools view's argument form (both have a "title" field) has ids of
// its own, so its labels point at its own fields and axe finds nothing; Enter
// in the Tools view's address field calls the tool with the raw "ü" encoded;
// a running call with long arguments wraps inside a 1,400 px window with
// "Cancel call" in view; the form's hints read as a person would write them;
// an untouched checkbox with no default is sent as the false it showed; and
// the page opened without its token says what happened and what to do.
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, setTheme } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const WIDTH = 1400;

describe('a question form over the Tools view', () => {
  it('has its own ids, survives long arguments, reads well, and sends the untouched checkbox as false', async () => {
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: { kimai: { command: modern.command, args: modern.args } },
    });
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.locator('.server-card[data-server="kimai"][data-status="connected"]').waitFor({ timeout: 30_000 });
    await page.locator('.server-card[data-server="kimai"]').getByRole('button', { name: 'Tools' }).click();
    await page.getByRole('button', { name: /^file_note/ }).click();

    const longTitle = 'quarterly-report-'.repeat(40);
    const args = page.locator('.tool-args');
    await args.locator('input[type="text"]').fill(longTitle);
    // Typed with a raw "ü" and submitted by Enter without leaving the field.
    await args.locator('input[type="url"]').fill('https://example.com/müsli');
    await args.locator('input[type="url"]').press('Enter');

    const dialog = page.getByRole('dialog');
    await dialog.getByText('Filing a note about https://example.com/m%C3%BCsli').waitFor();

    // The running call's long arguments wrap: nothing is wider than the window, Cancel call is in view.
    const card = page.locator('.call-card[data-call-state="running"]');
    await card.waitFor();
    const layout = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      main: document.querySelector('main')?.scrollWidth ?? 0,
      cancel: [...document.querySelectorAll('.call-card button')]
        .find((b) => b.textContent === 'Cancel call')
        ?.getBoundingClientRect().right,
    }));
    expect(layout.page).toBeLessThanOrEqual(WIDTH);
    expect(layout.main).toBeLessThanOrEqual(WIDTH);
    expect(layout.cancel).toBeGreaterThan(0);
    expect(layout.cancel).toBeLessThanOrEqual(WIDTH);
    // The cut line has the whole arguments one step away.
    await expect(card.locator('.call-args-all pre').textContent()).resolves.toContain(longTitle);

    // Both forms have a "title" field: every id on the page is unique,
    // and each label of the dialog names a field in it.
    const ids = await page.evaluate(() => {
      const all = [...document.querySelectorAll('[id]')].map((e) => e.id);
      const dialogEl = document.querySelector('[role="dialog"]')!;
      return {
        duplicates: all.filter((id, i) => all.indexOf(id) !== i),
        strayLabels: [...dialogEl.querySelectorAll('label[for]')]
          .map((l) => l.getAttribute('for')!)
          .filter((f) => !dialogEl.contains(document.getElementById(f))),
        titleField: dialogEl.querySelector('input[type="text"]')?.id,
      };
    });
    expect(ids).toEqual({ duplicates: [], strayLabels: [], titleField: 'answer_title' });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await setTheme(app, page, 'light');

    // The hints a person would write: singular, and no ±9007199254740991 for an integer without bounds.
    const text = await dialog.textContent();
    expect(text).toContain('At least 1 character');
    expect(text).not.toContain('1 characters');
    expect(text).toContain('Whole number');
    expect(text).not.toMatch(/9007199254740991/);

    await dialog.getByLabel(/^Title/).fill('Lunch');
    await answerDialog(page, 'Submit');
    const result = page.locator('.call-card[data-call-state="complete"] .result-text').first();
    // What went over the wire: the encoded link, and "urgent" as the false the unticked box showed.
    expect(JSON.parse((await result.textContent({ timeout: 15_000 })) ?? '')).toEqual({
      link: 'https://example.com/m%C3%BCsli',
      action: 'accept',
      content: { title: 'Lunch', urgent: false },
    });
    expect(problems).toEqual([]);
  });

  it('opened without its token, the page says what happened and what to do', async () => {
    const { app, page } = await suite.open({ settings: { theme: 'light', language: 'en' } });
    const bare = await page.context().browser()!.newPage();
    await bare.goto(`http://127.0.0.1:${app.shell.port}/`);
    const alert = bare.getByRole('alert');
    await expect(alert.textContent()).resolves.toBe(
      'This page was opened without its access key, so it cannot talk to Countersign.' +
        'Open the link that "countersign web" printed in its terminal (it ends in #token=…). If that terminal is gone, run countersign web again: it prints a new link.',
    );
    expect(await axe(bare)).toEqual([]);
    await bare.close();
  });
});
