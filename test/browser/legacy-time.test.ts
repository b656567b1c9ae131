// A legacy server's question through the real web shell, from the Tools
// view: the host's request timeout is shrunk to 2 s (the SDK's default is
// 60 s) and the human takes longer. The dialog must stay, the answer must
// reach the server; and a call that ends while its dialog is open withdraws
// the dialog at once with a note, sending nothing.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, setTheme } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const legacy = fixtureCommand('legacy');

async function start(settings: { questionTimeLimitMinutes?: number } = {}) {
  const { app, page, problems } = await suite.open({
    settings: { theme: 'light', language: 'en', ...settings },
    servers: { old: { command: legacy.command, args: legacy.args } },
    requestTimeoutMs: 2_000,
  });
  await page.locator('.server-card[data-server="old"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.locator('.server-card[data-server="old"]').getByRole('button', { name: 'Tools' }).click();
  return { app, page, problems };
}

const resultOf = (page: Page) => page.locator('.call-card').first();

describe('a legacy question in the Tools view', () => {
  it('stays open longer than the request timeout, and the answer reaches the server', async () => {
    const { app, page, problems } = await start();
    await page.getByRole('button', { name: /^book_time/ }).click();
    await page.getByRole('button', { name: 'Call book_time' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Book time on Countersign').waitFor();
    // Longer than the 2 s request timeout, with the dialog open.
    await page.waitForTimeout(3_500);
    expect(await dialog.count()).toBe(1);
    expect(await resultOf(page).getAttribute('data-call-state')).toBe('running');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(app, page, theme);
      expect(await axe(page)).toEqual([]);
    }
    await answerDialog(page, 'Submit');
    await expect.poll(() => resultOf(page).getAttribute('data-call-state'), { timeout: 15_000 }).toBe('complete');
    // The server echoes the booking it received: the form's content made it there.
    const booked = JSON.parse((await resultOf(page).locator('.result-text').textContent()) ?? 'null');
    expect(Object.keys(booked ?? {}).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('a call that ends while its dialog is open withdraws the dialog at once, with a note', async () => {
    const { page, problems } = await start();
    await page.getByRole('button', { name: /^ask_and_leave/ }).click();
    await page.getByRole('button', { name: 'Call ask_and_leave' }).click();
    // Completed by the server, but nobody answered: the card says so rather than "Done".
    await expect.poll(() => resultOf(page).getAttribute('data-call-state'), { timeout: 15_000 }).toBe('unanswered');
    await expect(resultOf(page).locator('.result-text').textContent()).resolves.toBe('moved on without an answer');
    await expect(resultOf(page).getByTestId('call-outcome-note').textContent()).resolves.toBe(
      'Nobody answered its question: it was withdrawn before anyone answered. The server then ended with the reply below.',
    );
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    await expect(page.locator('.note[data-reason="call-ended"]').textContent()).resolves.toContain(
      'its call ended, so no answer will be sent',
    );
    expect(problems).toEqual([]);
  });

  it('a time limit, when the user set one, is named in the dialog', async () => {
    const { page, problems } = await start({ questionTimeLimitMinutes: 15 });
    await page.getByRole('button', { name: /^book_time/ }).click();
    await page.getByRole('button', { name: 'Call book_time' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('.origin-limit').textContent()).resolves.toBe(
      'Closes by itself after 15 min without an answer (Settings → Question time limit).',
    );
    expect(await axe(page)).toEqual([]);
    await answerDialog(page, 'Decline');
    expect(problems).toEqual([]);
  });
});
