// Issue 11 §8 in real Chromium through the web shell, over a journal written
// through the real HistoryJournal API: "Forms and links" shows only the
// questions (no call-ended or fault rows), a long tool name is whole on hover
// and wraps whole in the detail pane, and two servers whose names share a
// monogram ("pay-east", "pay-eu") get different badges.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryJournal, type EntryInput } from '../../electron/core/history';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { axe } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const LONG = 'reconcile_quarterly_ledger_entries_across_every_connected_subsidiary_account_and_currency_v2';

function entries(): EntryInput[] {
  return [
    {
      kind: 'question',
      questionId: 'q-long',
      callId: 'c-long',
      server: { name: 'pay-east', era: 'modern', protocolVersion: '2026-07-28' },
      call: { method: 'tools/call', name: LONG },
      round: 1,
      key: 'confirm',
      mode: 'form',
      message: 'Reconcile the ledgers now?',
      requestedSchema: { type: 'object', properties: {} },
    },
    {
      kind: 'answer',
      questionId: 'q-long',
      callId: 'c-long',
      server: 'pay-east',
      action: 'accept',
      decidedBy: 'human',
      content: {},
    },
    { kind: 'call-end', callId: 'c-long', server: 'pay-east', method: 'tools/call', name: LONG, outcome: 'complete' },
    // A call that asked nothing, and a fault: neither is a form or a link.
    { kind: 'call-end', callId: 'c-echo', server: 'pay-eu', method: 'tools/call', name: 'echo', outcome: 'complete' },
    {
      kind: 'fault',
      fault: 'invalid-schema',
      server: 'pay-eu',
      callId: 'c-bad',
      detail: 'server "pay-eu" sent a form the host cannot show safely (key "details")',
    },
  ];
}

describe('History view polish', () => {
  it('"Forms and links" keeps only questions; long tool names stay readable; badges are unique', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-history-polish-'));
    const journal = await HistoryJournal.open(join(dataDir, 'history'));
    for (const e of entries()) await journal.append(e);
    await journal.close();
    const { page, problems } = await suite.open({
      dataDir,
      settings: { theme: 'light', language: 'en' },
      servers: {
        'pay-east': { command: modern.command, args: modern.args },
        'pay-eu': { command: modern.command, args: modern.args },
      },
    });

    const badge = (server: string) => page.locator(`.server-card[data-server="${server}"] .server-badge`).textContent();
    const [east, eu] = [await badge('pay-east'), await badge('pay-eu')];
    expect(east).not.toBe(eu);

    await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
    const rows = page.locator('.history-row');
    await page.waitForFunction(() => document.querySelector('.history-count')?.textContent === '3 entries');
    await page.getByRole('search').getByLabel('Kind', { exact: true }).selectOption({ label: 'Forms and links' });
    await page.waitForFunction(() => document.querySelector('.history-count')?.textContent === '1 entry');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().locator('.history-row-text').textContent()).resolves.toBe('Reconcile the ledgers now?');

    // Cut in the row, whole on hover; whole (wrapped, nothing hidden) in the detail pane.
    const call = rows.first().locator('.history-row-call');
    await expect(call.getAttribute('title')).resolves.toBe(LONG);
    await rows.first().click();
    const name = page.locator('.history-detail .origin-name', { hasText: LONG });
    await name.waitFor();
    const fits = await name.evaluate((el) => ({
      whole: el.textContent,
      hidden: el.scrollWidth > el.clientWidth + 1,
      inPane: el.getBoundingClientRect().right <= el.closest('.history-detail')!.getBoundingClientRect().right + 1,
    }));
    expect(fits).toEqual({ whole: LONG, hidden: false, inPane: true });
    // The detail's badge is the same unique one as on the Servers view.
    await expect(page.locator('.history-detail .server-badge').first().textContent()).resolves.toBe(east);
    expect(await axe(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
