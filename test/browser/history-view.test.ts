// The History view in Chromium through the real web shell, over a journal
// pre-filled with a few hundred real entries (appended through the
// HistoryJournal API, spread over three weeks) plus calls made live while
// the view is open: the count, refresh on append, filters (server, outcome,
// kind, dates, text), the detail of a form and of a link question, keyboard
// paging to the oldest entry, and export of the filtered set as JSON Lines
// and CSV caught through the browser's download.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEntry } from '../../bench/history.bench';
import { HistoryJournal, type EntryInput } from '../../electron/core/history';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { answerDialog, axe, openApp, setTheme, shot, startAppShell, type AppShell } from './app-shell';
import { buildPrivateRenderer, launchChromium, type LaunchedBrowser } from './paint-latency';

const SAMPLES = 600;
const DAY = 86_400_000;

let build: Awaited<ReturnType<typeof buildPrivateRenderer>>;
let launched: LaunchedBrowser;
let app: AppShell;
let page: Page;
let problems: string[];
/** When the first pre-filled entry was written (three weeks ago, local midnight + 9 h). */
let start: Date;

/** A few hand-made questions, newest of the pre-filled ones: a filled form and a look-alike link. */
function crafted(): EntryInput[] {
  return [
    {
      kind: 'question',
      questionId: 'cq-form',
      callId: 'cc-form',
      server: { name: 'github', era: 'modern', protocolVersion: '2026-07-28' },
      call: {
        method: 'tools/call',
        name: 'create_issue',
        argumentsSummary: 'repo="octo/hello", title="Crash on start"',
      },
      round: 2,
      key: 'details',
      mode: 'form',
      message: 'Tell me who reports the crash and how urgent it is.',
      requestedSchema: {
        type: 'object',
        properties: {
          reporter: { type: 'string', title: 'Reporter', minLength: 2 },
          email: { type: 'string', title: 'Email', format: 'email' },
          severity: {
            type: 'string',
            title: 'Severity',
            oneOf: [
              { const: 'low', title: 'Low' },
              { const: 'high', title: 'High' },
            ],
          },
          labels: { type: 'array', title: 'Labels', items: { type: 'string', enum: ['ui', 'core', 'docs'] } },
          notify: { type: 'boolean', title: 'Notify the team', default: true },
        },
        required: ['reporter', 'severity'],
      },
    },
    {
      kind: 'answer',
      questionId: 'cq-form',
      callId: 'cc-form',
      server: 'github',
      action: 'accept',
      decidedBy: 'human',
      content: {
        reporter: 'Grace Hopper',
        email: 'grace@example.com',
        severity: 'high',
        labels: ['core'],
        notify: false,
      },
    },
    {
      kind: 'call-end',
      callId: 'cc-form',
      server: 'github',
      method: 'tools/call',
      name: 'create_issue',
      outcome: 'complete',
      rounds: 2,
    },
    {
      kind: 'question',
      questionId: 'cq-url',
      callId: 'cc-url',
      server: { name: 'calendar', era: 'modern', protocolVersion: '2026-07-28' },
      // Relayed by a gateway: its labels are the gateway's word, and the view says so.
      call: {
        method: 'tools/call',
        name: 'connect_account',
        argumentsSummary: 'provider="work"',
        agent: 'claude-code 2.1 (#3)',
        reportedBy: 'gateway',
      },
      round: 1,
      key: 'signin',
      mode: 'url',
      message: 'Sign in to connect your calendar.',
      url: analyzeUrl('https://login.xn--pypal-4ve.com@203.0.113.7/verify?next=%2Faccount'),
    },
    {
      kind: 'answer',
      questionId: 'cq-url',
      callId: 'cc-url',
      server: 'calendar',
      action: 'decline',
      decidedBy: 'human',
      urlOpened: false,
    },
    {
      kind: 'call-end',
      callId: 'cc-url',
      server: 'calendar',
      method: 'tools/call',
      name: 'connect_account',
      outcome: 'complete',
      rounds: 1,
    },
  ];
}

beforeAll(async () => {
  [build, launched] = await Promise.all([buildPrivateRenderer(), launchChromium()]);
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-history-view-'));
  const now = new Date();
  start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 21, 9);
  const entries = [...Array.from({ length: SAMPLES }, (_, i) => sampleEntry(i)), ...crafted()];
  let i = 0;
  // Spread over three weeks up to an hour ago; the journal stamps each entry with this clock.
  const step = (now.getTime() - 3_600_000 - start.getTime()) / entries.length;
  const journal = await HistoryJournal.open(join(dataDir, 'history'), {
    now: () => new Date(start.getTime() + step * i++),
  });
  for (const e of entries) await journal.append(e);
  await journal.close();
  const modern = fixtureCommand('modern');
  app = await startAppShell({
    rendererDir: build.dir,
    dataDir,
    servers: { kimai: { command: modern.command, args: modern.args } },
    settings: { theme: 'light', language: 'en' },
  });
  ({ page, problems } = await openApp(launched.browser, app, { viewport: { width: 1280, height: 820 } }));
});

afterAll(async () => {
  await page?.close();
  await app?.close();
  await launched?.close();
  await build?.remove();
});

const total = async (filter: Record<string, unknown> = {}) =>
  (await app.service.queryHistory({ ...filter, limit: 1 })).total;
const countText = (n: number) => (n === 1 ? '1 entry' : `${n.toLocaleString('en-US')} entries`);
const count = () => page.locator('.history-count');
const rows = () => page.locator('.history-row');
const detail = () => page.locator('.history-detail');
const filter = (label: string) => page.getByRole('search').getByLabel(label, { exact: true });

async function waitCount(n: number) {
  await page.waitForFunction((text) => document.querySelector('.history-count')?.textContent === text, countText(n));
}

describe('the History view', () => {
  it('lists the journal newest first and follows live calls without a reload', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
    const all = await total();
    expect(all).toBeGreaterThan(200);
    await waitCount(all);
    await expect(rows().first().textContent()).resolves.toContain('calendar');

    // A live call while the view is open: its question appears as the dialog, then on top of the list.
    const call = app.service.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: 77 } });
    await page.getByRole('dialog').getByText('Delete time entry 77?').waitFor({ timeout: 30_000 });
    await answerDialog(page, 'Accept');
    await call;
    await waitCount(all + 1);
    // The answer and the call's end follow the question into the journal: the row catches up.
    await page
      .locator('.history-row[aria-posinset="1"]', { hasText: 'kimai' })
      .locator('.pill', { hasText: 'Accepted' })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('filters by server, outcome, kind, text and dates; the count and the rows agree with the host', async () => {
    await filter('Server').selectOption('github');
    await waitCount(await total({ server: 'github' }));
    for (const text of await page.locator('.history-row-server').allTextContents()) expect(text).toBe('github');

    await filter('Outcome').selectOption('decline');
    const declined = await total({ server: 'github', action: 'decline' });
    expect(declined).toBeGreaterThan(0);
    await waitCount(declined);
    for (const text of await page.locator('.history-row .pill').allTextContents()) expect(text).toBe('Declined');

    await filter('Kind').selectOption('url');
    await waitCount(await total({ server: 'github', action: 'decline', mode: 'url' }));
    await filter('Kind').selectOption('');

    // Dates: only the first week (local days, both ends included).
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const weekEnd = new Date(start.getTime() + 6 * DAY);
    await filter('From').fill(day(start));
    await filter('To').fill(day(weekEnd));
    const until = new Date(weekEnd.getFullYear(), weekEnd.getMonth(), weekEnd.getDate() + 1).toISOString();
    const firstWeek = await total({
      server: 'github',
      action: 'decline',
      since: new Date(start.getFullYear(), start.getMonth(), start.getDate()).toISOString(),
      until,
    });
    expect(firstWeek).toBeGreaterThan(0);
    expect(firstWeek).toBeLessThan(declined);
    await waitCount(firstWeek);

    // Text: applied after typing stops.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitCount(await total());
    await filter('Search').fill('ticket 42');
    await waitCount(await total({ text: 'ticket 42' }));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitCount(await total());
  });

  it('shows a form question as it was shown, with the answer, and a link question with its warnings', async () => {
    // The hand-made questions are the newest pre-filled ones, right under the live call.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.locator('.history-row', { hasText: 'Tell me who reports the crash' }).click();
    const d = detail();
    await d.getByRole('heading', { name: 'github asked for information' }).waitFor();
    await expect(d.locator('.message-text').textContent()).resolves.toBe(
      'Tell me who reports the crash and how urgent it is.',
    );
    // The form, read-only, holding the values that were sent.
    await expect(d.getByLabel('Reporter').inputValue()).resolves.toBe('Grace Hopper');
    expect(await d.getByLabel('Reporter').getAttribute('readonly')).not.toBeNull();
    expect(await d.getByLabel('High').isChecked()).toBe(true);
    expect(await d.getByLabel('Notify the team').isChecked()).toBe(false);
    const facts = d.locator('.facts');
    await expect(facts.textContent()).resolves.toMatch(
      /OutcomeAccepted.*Decided byYou.*reporter: Grace Hopper.*The callCompleted · rounds: 2/,
    );
    expect(await axe(page)).toEqual([]);
    await shot(page, 'app-history-light');

    const relayed = page.locator('.history-row', { hasText: 'Sign in to connect your calendar.' });
    await expect(relayed.locator('.history-row-reported').textContent()).resolves.toBe('via gateway');
    expect(
      await page
        .locator('.history-row', { hasText: 'Tell me who reports the crash' })
        .locator('.history-row-reported')
        .count(),
    ).toBe(0);
    await relayed.click();
    await d.getByRole('heading', { name: 'calendar asked you to open a link' }).waitFor();
    await d.getByText('Server, call and agent as reported by the gateway').waitFor();
    await d.getByText('For the agent claude-code 2.1 (#3)').waitFor();
    await expect(d.locator('[data-testid="url-full"]').textContent()).resolves.toBe(
      'https://login.xn--pypal-4ve.com@203.0.113.7/verify?next=%2Faccount',
    );
    expect(await d.locator('.url-warning').count()).toBeGreaterThanOrEqual(2);
    await expect(facts.textContent()).resolves.toMatch(/OutcomeDeclined.*Link openedNo/);
    await setTheme(app, page, 'dark');
    expect(await axe(page)).toEqual([]);
    await shot(page, 'app-history-dark');
    await setTheme(app, page, 'light');
    await page.setViewportSize({ width: 1280, height: 820 });

    // Found by text too.
    await filter('Search').fill('Crash on start');
    await page.locator('.history-row', { hasText: 'create_issue' }).and(page.locator('[aria-posinset="1"]')).waitFor();
    await waitCount(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitCount(await total());
  });

  it('pages by keyboard through the virtual list to the oldest entry', async () => {
    const all = await total();
    const list = page.getByRole('listbox');
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await page.locator('.history-row[aria-posinset="1"][aria-selected="true"]').waitFor();
    // Only the rows on screen exist.
    expect(await rows().count()).toBeLessThan(60);
    await page.keyboard.press('End');
    const last = page.locator(`.history-row[aria-posinset="${all}"][aria-selected="true"]`);
    await last.waitFor();
    await last.locator('.pill').waitFor();
    // The oldest entry is the first pre-filled question.
    await detail()
      .getByText(/Confirm create_issue on github/)
      .first()
      .waitFor();
    expect(await list.getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));
    await page.keyboard.press('PageUp');
    await page.locator('.history-row[aria-selected="true"]').waitFor();
    expect(Number(await page.locator('.history-row[aria-selected="true"]').getAttribute('aria-posinset'))).toBeLessThan(
      all,
    );
    expect(await axe(page)).toEqual([]);
  });

  it('exports the filtered set as JSON Lines and CSV through a browser download', async () => {
    await filter('Server').selectOption('github');
    await filter('Outcome').selectOption('decline');
    const n = await total({ server: 'github', action: 'decline' });
    await waitCount(n);

    const [jsonl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON Lines' }).click(),
    ]);
    expect(jsonl.suggestedFilename()).toMatch(/^countersign-history-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const lines = (await readFile(await jsonl.path(), 'utf8'))
      .trimEnd()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { kind: string; question: { server: { name: string } }; answer: { action: string } },
      );
    expect(lines).toHaveLength(n);
    for (const item of lines)
      expect([item.kind, item.question.server.name, item.answer.action]).toEqual(['question', 'github', 'decline']);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const table = (await readFile(await csv.path(), 'utf8')).trimEnd().split('\n');
    expect(table[0]).toBe(
      'seq,asked,answered,server,era,method,name,round,key,mode,message,url,action,decided_by,content,call_outcome',
    );
    expect(table).toHaveLength(n + 1);
    for (const row of table.slice(1)) expect(row).toMatch(/,github,.*,decline,/);
    expect(problems).toEqual([]);
  });
});
