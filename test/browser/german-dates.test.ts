// Issue 23 item 12: in German, date fields showed the browser's mm/dd/yyyy.
// Real Chromium (its locale is English here, as on many a German user's
// machine), the real web shell and the legacy fixture's booking form: the
// dialog takes TT.MM.JJJJ and TT.MM.JJJJ HH:MM, refuses a day that does not
// exist, and the server receives YYYY-MM-DD and UTC with Z.
import { expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, setTheme } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const legacy = fixtureCommand('legacy');

it('a German form takes dates as TT.MM.JJJJ and sends what the schema asks for', async () => {
  const { app, page, problems } = await suite.open({
    settings: { theme: 'light', language: 'de' },
    servers: { old: { command: legacy.command, args: legacy.args } },
  });
  // The browser's own locale is not German: what a native date input would follow.
  expect(await page.evaluate(() => navigator.language)).not.toMatch(/^de/);
  await page.locator('.server-card[data-server="old"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.locator('.server-card[data-server="old"]').getByRole('button', { name: 'Werkzeuge' }).click();
  await page.getByRole('button', { name: /^book_time/ }).click();
  await page.getByRole('button', { name: 'book_time aufrufen' }).click();
  const dialog = page.getByRole('dialog');
  const day = dialog.getByLabel('Day');
  const started = dialog.getByLabel('Started at');
  await day.waitFor();
  // The server's defaults, shown in the German order (the time in this machine's zone).
  await expect(day.inputValue()).resolves.toBe('28.07.2026');
  const shownStart = await page.evaluate(() => {
    const d = new Date('2026-07-28T09:00:00Z');
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
  });
  await expect(started.inputValue()).resolves.toBe(shownStart);
  await expect(day.getAttribute('placeholder')).resolves.toBe('TT.MM.JJJJ');
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(app, page, theme);
    expect(await axe(page)).toEqual([]);
  }
  await setTheme(app, page, 'light');

  // A day that does not exist is named at its field, and nothing is sent.
  await day.fill('31.02.2026');
  await dialog.getByRole('button', { name: 'Absenden', exact: true }).click();
  await dialog.getByText('Geben Sie ein Datum ein.').waitFor();
  expect(await dialog.count()).toBe(1);

  await day.fill('24.12.2026');
  await started.fill('24.12.2026 17:45');
  await answerDialog(page, 'Absenden');
  const text = await page.locator('.call-card').first().locator('.result-text').textContent({ timeout: 15_000 });
  const booked = JSON.parse(text ?? 'null') as { day: string; startedAt: string };
  expect(booked.day).toBe('2026-12-24');
  expect(booked.startedAt).toBe(await page.evaluate(() => new Date(2026, 11, 24, 17, 45).toJSON()));
  expect(problems).toEqual([]);
});
