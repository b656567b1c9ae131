// The History view over the in-memory host: the virtualised list (only the
// rows on screen exist), filters, keyboard selection, the detail of form and
// link questions, refresh on historyAppended, and export as a download.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FlatSchema } from '../../../../shared/elicitation/types';
import { analyzeUrl } from '../../../../shared/url/analyze-url';
import { historyItem } from '../../testing/history';
import { renderApp } from '../../testing/render-app';

// jsdom lays nothing out: give the list a height so the virtualiser has a window to fill.
const height = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('history-list') ? 640 : 0;
    },
  });
});
afterAll(() => {
  if (height) Object.defineProperty(Element.prototype, 'clientHeight', height);
});

const schema: FlatSchema = {
  type: 'object',
  properties: {
    reporter: { type: 'string', title: 'Reporter' },
    urgent: { type: 'boolean', title: 'Urgent', default: true },
    note: { type: 'string', title: 'Note', default: 'n/a' },
  },
  required: ['reporter'],
};

function journal(n: number) {
  return Array.from({ length: n }, (_, i) =>
    historyItem(i + 1, {
      server: ['github', 'files', 'calendar'][i % 3],
      action: (['accept', 'decline', 'cancel'] as const)[i % 3],
      tool: `tool_${i + 1}`,
      message: `Question number ${i + 1}`,
    }),
  );
}

async function open(history = journal(5000)) {
  const app = await renderApp({ view: 'history', servers: ['github', 'files', 'calendar'], history });
  await screen.findByText(`${history.length.toLocaleString()} ${history.length === 1 ? 'entry' : 'entries'}`);
  return { app, user: userEvent.setup(), list: screen.getByRole('listbox', { name: 'History entries, newest first' }) };
}

describe('History view', () => {
  it('virtualises: 5000 entries, a screenful of rows, pages fetched as needed', async () => {
    const { app, list } = await open();
    const rows = within(list).getAllByRole('option');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('5000');
    expect(rows[0]!.textContent).toContain('Question number 5000');
    expect(
      app.host.calls.filter((c) => c.method === 'queryHistory').map((c) => (c.params as { offset: number }).offset),
    ).toEqual([0]);
  });

  it('keyboard: Down selects the newest, End the oldest (loading its page), the detail follows', async () => {
    const { app, user, list } = await open();
    list.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(list.getAttribute('aria-activedescendant')).toBeTruthy());
    expect(document.getElementById(list.getAttribute('aria-activedescendant')!)?.getAttribute('aria-posinset')).toBe(
      '1',
    );
    expect(screen.getByRole('heading', { name: 'files asked for your confirmation' })).toBeTruthy();
    await user.keyboard('{End}');
    await waitFor(() => expect(document.querySelector('.history-detail')?.getAttribute('data-seq')).toBe('1'));
    expect(screen.getByRole('heading', { name: 'github asked for your confirmation' })).toBeTruthy();
    expect(
      app.host.calls.filter((c) => c.method === 'queryHistory').map((c) => (c.params as { offset: number }).offset),
    ).toContain(4900);
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.querySelector('.history-detail')?.getAttribute('data-seq')).toBe('2'));
  });

  it('filters by server, outcome, kind and dates at once, and by text after typing stops', async () => {
    const { app, user } = await open();
    const search = within(screen.getByRole('search'));
    await user.selectOptions(search.getByLabelText('Server'), 'files');
    await screen.findByText('1,667 entries');
    await user.selectOptions(search.getByLabelText('Outcome'), 'decline');
    await screen.findByText('1,667 entries');
    await user.selectOptions(search.getByLabelText('Outcome'), 'accept');
    await screen.findByText('0 entries');
    expect(screen.getByText('Nothing here.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('5,000 entries');
    fireEvent.change(search.getByLabelText('From'), { target: { value: '2026-01-02' } });
    fireEvent.change(search.getByLabelText('To'), { target: { value: '2026-01-02' } });
    await screen.findByText('1,440 entries'); // one entry a minute, one local day
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.type(search.getByLabelText('Search'), 'number 4242');
    await screen.findByText('1 entry');
    const queries = app.host.calls
      .filter((c) => c.method === 'queryHistory')
      .map((c) => c.params as Record<string, unknown>);
    // Typing sent one query, not one per key.
    expect(queries.filter((q) => typeof q.text === 'string')).toEqual([
      expect.objectContaining({ text: 'number 4242', offset: 0 }),
    ]);
    expect(queries).toContainEqual(expect.objectContaining({ server: 'files', action: 'decline' }));
    expect(queries).toContainEqual(
      expect.objectContaining({ since: new Date(2026, 0, 2).toISOString(), until: new Date(2026, 0, 3).toISOString() }),
    );
  });

  it('a legacy call that asked says no "rounds: 0": it has no retry rounds to count', async () => {
    const item = historyItem(1, { action: 'accept', callEnd: { outcome: 'complete', isError: false, rounds: 0 } });
    item.question.server.era = 'legacy';
    const { user } = await open([item]);
    await user.click(within(screen.getByRole('listbox')).getByRole('option'));
    const facts = document.querySelector('.history-detail .facts')!.textContent;
    expect(facts).toContain('Completed');
    expect(facts).not.toContain('rounds');
  });

  it('shows a form question read-only with the sent values, and the facts of its answer', async () => {
    const items = [
      historyItem(1, {
        tool: 'create_issue',
        message: 'Who reports it?',
        schema,
        action: 'accept',
        content: { reporter: 'Ada', urgent: false },
        callEnd: { outcome: 'complete', isError: true, rounds: 2, detail: 'tool said no' },
      }),
    ];
    const { user } = await open(items);
    await user.click(within(screen.getByRole('listbox')).getByRole('option'));
    const detail = document.querySelector<HTMLElement>('.history-detail')!;
    const d = within(detail);
    expect(d.getByRole('heading', { name: 'github asked for information' })).toBeTruthy();
    expect(d.getByText('Who reports it?')).toBeTruthy();
    const reporter = d.getByLabelText(/^Reporter/) as HTMLInputElement;
    expect([reporter.value, reporter.readOnly]).toEqual(['Ada', true]);
    expect((d.getByLabelText('Urgent') as HTMLInputElement).checked).toBe(false);
    // A field the human left empty is not filled with its default as if it had been sent.
    expect((d.getByLabelText('Note') as HTMLInputElement).value).toBe('');
    expect(d.getByText('The form as it was shown, with the answer that was sent.')).toBeTruthy();
    const facts = detail.querySelector('.facts')!.textContent;
    expect(facts).toContain('OutcomeAccepted');
    expect(facts).toContain('Decided byYou');
    expect(facts).toContain('Completed with a tool error · rounds: 2tool said no');
    expect(facts).toContain('reporter: Ada');
  });

  it("shows the fields in the order the human saw them, not the journal's sorted order", async () => {
    const item = historyItem(1, {
      schema: {
        type: 'object',
        properties: {
          amount: { type: 'number', title: 'Amount' },
          project: { type: 'string', title: 'Project' },
          when: { type: 'string', title: 'When' },
        },
      },
      action: 'accept',
      content: { project: 'cs', when: 'today', amount: 2 },
    });
    (item as unknown as { question: { fieldOrder: string[] } }).question.fieldOrder = ['project', 'when', 'amount'];
    const { user } = await open([item]);
    await user.click(within(screen.getByRole('listbox')).getByRole('option'));
    const form = document.querySelector<HTMLElement>('.record-form')!;
    const labels = [...form.querySelectorAll('label')].map((l) => l.textContent?.trim());
    expect(labels).toEqual(['Project', 'When', 'Amount']);
  });

  it('shows a redacted answer as redacted, and a link question with its analysis and warnings', async () => {
    const url = analyzeUrl('http://user@xn--pypal-4ve.com/login');
    const items = [
      historyItem(1, { schema, action: 'accept', redacted: ['reporter'], decidedBy: 'script' }),
      historyItem(2, { server: 'calendar', url, action: 'decline', message: 'Sign in please.' }),
      historyItem(3, { server: 'files', url, action: 'cancel', decidedBy: 'mute-rule' }),
    ];
    const { user, list } = await open(items);
    list.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.querySelector('.facts')?.textContent).toContain('Decided by“Stop asking this session”');
    await user.keyboard('{ArrowDown}');
    const detail = within(document.querySelector<HTMLElement>('.history-detail')!);
    expect(detail.getByRole('heading', { name: 'calendar asked you to open a link' })).toBeTruthy();
    expect(detail.getByTestId('url-full').textContent).toBe('http://user@xn--pypal-4ve.com/login');
    expect(detail.getAllByRole('listitem').map((li) => li.getAttribute('data-code'))).toEqual(
      expect.arrayContaining(['confusable', 'http-not-loopback', 'credentials']),
    );
    expect(document.querySelector('.facts')?.textContent).toContain('Link openedNo');
    await user.keyboard('{ArrowDown}');
    expect(
      detail.getByText('The form as it was shown. The answer’s values were not recorded (redaction was on).'),
    ).toBeTruthy();
    expect((detail.getByLabelText(/^Reporter/) as HTMLInputElement).value).toBe('');
    expect((detail.getByLabelText('Urgent') as HTMLInputElement).checked).toBe(false);
    expect(document.querySelector('.facts')?.textContent).toContain('ContentRedacted. Fields: reporter');
    expect(document.querySelector('.facts')?.textContent).toContain('Decided byA script');
  });

  it('follows historyAppended: new entries on top, the selection stays on its entry', async () => {
    const { app, user, list } = await open(journal(20));
    list.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(document.querySelector('.history-detail')?.getAttribute('data-seq')).toBe('19'));
    act(() => {
      app.host.appendHistory(historyItem(21, { server: 'files', message: 'Brand new' }));
      app.host.appendHistory(historyItem(22, { server: 'files', message: 'Newer still' }));
    });
    await screen.findByText('22 entries');
    expect(within(list).getAllByRole('option')[0]!.textContent).toContain('Newer still');
    expect(document.querySelector('.history-detail')?.getAttribute('data-seq')).toBe('19');
    expect(document.getElementById(list.getAttribute('aria-activedescendant')!)?.getAttribute('aria-posinset')).toBe(
      '4',
    );
  });

  it('exports the filtered set as a file download', async () => {
    const { app, user } = await open(journal(30));
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:test';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: Array<{ href: string; download: string }> = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    try {
      await user.selectOptions(within(screen.getByRole('search')).getByLabelText('Server'), 'files');
      await screen.findByText('10 entries');
      await user.click(screen.getByRole('button', { name: 'Export JSON Lines' }));
      await waitFor(() => expect(clicked).toEqual([{ href: 'blob:test', download: 'countersign-history.jsonl' }]));
      expect(app.host.calls.find((c) => c.method === 'exportHistory')?.params).toEqual({
        filter: { server: 'files' },
        format: 'jsonl',
      });
      const lines = (await created[0]!.text()).trim().split('\n');
      expect(lines).toHaveLength(10);
      expect(created[0]!.type).toBe('application/jsonl;charset=utf-8');
      app.host.failNext('exportHistory', 'disk full');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect((await screen.findByRole('alert')).textContent).toBe('The export failed: disk full');
    } finally {
      click.mockRestore();
    }
  });

  it('Verify checks the whole chain and says so: intact with the count, or where it breaks', async () => {
    const { app, user } = await open(journal(12));
    await user.click(screen.getByRole('button', { name: 'Verify chain' }));
    expect(await screen.findByText('Chain intact: 12 entries checked.')).toBeTruthy();
    expect(app.host.calls.filter((c) => c.method === 'verifyHistory')).toHaveLength(1);
    app.unmount();

    const broken = {
      ok: false,
      entries: 41,
      firstBreak: {
        file: 'journal-0001.jsonl',
        line: 42,
        seq: 42,
        detail: "entry 42's hash does not match its content",
      },
    };
    await renderApp({ view: 'history', servers: ['github'], history: journal(3), historyVerify: broken });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Verify chain' }));
    expect(
      await screen.findByText(
        "Chain broken after 41 good entries, at journal-0001.jsonl:42 (#42): entry 42's hash does not match its content",
      ),
    ).toBeTruthy();
  });

  it('marks labels a gateway reported, in the row and in the detail (with the agent)', async () => {
    const { user } = await open([
      historyItem(1, { server: 'files', message: 'Local one' }),
      historyItem(2, { server: 'github', message: 'Relayed one', viaGateway: { agent: 'claude-code 2.1 (#3)' } }),
    ]);
    const rows = screen.getAllByRole('option');
    const relayed = rows.find((r) => r.textContent?.includes('Relayed one'))!;
    const local = rows.find((r) => r.textContent?.includes('Local one'))!;
    expect(within(relayed).getByText('via gateway').getAttribute('title')).toBe(
      'Server, call and agent as reported by the gateway',
    );
    expect(within(local).queryByText('via gateway')).toBeNull();
    await user.click(relayed);
    const detail = document.querySelector<HTMLElement>('.history-detail')!;
    await waitFor(() => expect(detail.getAttribute('data-seq')).toBe('2'));
    expect(within(detail).getByText('Server, call and agent as reported by the gateway')).toBeTruthy();
    expect(within(detail).getByText('For the agent claude-code 2.1 (#3)')).toBeTruthy();
    await user.click(local);
    await waitFor(() => expect(detail.getAttribute('data-seq')).toBe('1'));
    expect(within(detail).queryByText('Server, call and agent as reported by the gateway')).toBeNull();
  });

  it('a history read from its end shows how many so far, and scrolling on loads more', async () => {
    const history = journal(1000);
    await renderApp({ view: 'history', servers: ['github'], history, historyReadAhead: 100 });
    const first = await screen.findByText(/^\d+\+ entries \(more load as you scroll\)$/);
    const before = Number(first.textContent!.split('+')[0]!.replace(/\D/g, ''));
    expect(before).toBeLessThan(1000);
    const list = screen.getByRole('listbox', { name: 'History entries, newest first' });
    expect(within(list).getAllByRole('option')[0]!.getAttribute('aria-setsize')).toBe('-1');
    list.focus();
    await userEvent.setup().keyboard('{End}');
    // End goes to the last row found so far; loading it finds more.
    await waitFor(() =>
      expect(
        Number(document.querySelector('.history-count')!.textContent!.split(/[+ ]/)[0]!.replace(/\D/g, '')),
      ).toBeGreaterThan(before),
    );
  });

  it('says so when the history cannot be read', async () => {
    const app = await renderApp({ view: 'settings' });
    app.host.failNext('queryHistory', 'the journal is locked');
    await userEvent.setup().click(within(screen.getByRole('navigation')).getByRole('button', { name: 'History' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The history could not be read: the journal is locked');
  });

  it('a long tool name is whole on hover in the row and whole in the detail pane', async () => {
    const long = 'create_or_update_the_quarterly_financial_report_for_every_regional_subsidiary_v2';
    const { user } = await open([historyItem(1, { server: 'github', action: 'accept', tool: long, message: 'Go?' })]);
    const option = within(screen.getByRole('listbox')).getByRole('option');
    expect(option.querySelector('.history-row-call')!.getAttribute('title')).toBe(long);
    await user.click(option);
    const detail = document.querySelector<HTMLElement>('.history-detail')!;
    expect(detail.querySelector('.origin-name')!.textContent).toBe(long);
  });

  it('"Forms and links" shows only questions; "Everything" is the default', async () => {
    const { app } = await open(journal(3));
    const kind = screen.getByLabelText('Kind') as HTMLSelectElement;
    expect(kind.selectedOptions[0]!.textContent).toBe('Everything');
    await userEvent.setup().selectOptions(kind, 'Forms and links');
    expect(kind.value).toBe('question');
    await waitFor(() =>
      expect(
        app.host.calls.some((c) => c.method === 'queryHistory' && (c.params as { mode?: string }).mode === 'question'),
      ).toBe(true),
    );
    expect(await screen.findByText('3 entries')).toBeTruthy();
  });
});
