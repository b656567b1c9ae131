import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answer, callEnd, fault, question, tempDir } from './fixtures/helpers';
import { HistoryJournal } from './journal';
import { buildItems, filterItems, type HistoryItem, type QuestionItem } from './query';
import type { EntryInput } from './types';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Appends `inputs` one minute apart from 2026-03-01T10:00Z. */
async function journalOf(inputs: EntryInput[]): Promise<HistoryItem[]> {
  let t = Date.parse('2026-03-01T10:00:00.000Z');
  const j = await HistoryJournal.open(dir, { now: () => new Date((t += 60_000) - 60_000) });
  for (const input of inputs) await j.append(input);
  const items = await j.query();
  await j.close();
  return items;
}

const urlQuestion = question(3, {
  server: { name: 'bank', era: 'legacy' },
  mode: 'url',
  requestedSchema: undefined,
  message: 'Sign in to continue',
  url: {
    href: 'https://login.bank.example/a?b=(c)',
    scheme: 'https',
    host: 'login.bank.example',
    hostUnicode: 'login.bank.example',
    registrableDomain: 'bank.example',
    warnings: [],
    blocked: false,
  },
});

const sample: EntryInput[] = [
  question(1), // 10:00
  answer(1, { content: { confirm: true, note: 'Ship It' } }), // 10:01
  question(2, { callId: 'c1', round: 2 }), // 10:02, same call as q1, next round
  answer(2, { callId: 'c1', action: 'decline', content: undefined, decidedBy: 'mute-rule', decidedByDetail: 'rule-7' }), // 10:03
  callEnd(1), // 10:04
  urlQuestion, // 10:05
  answer(3, { server: 'bank', action: 'accept', content: undefined, urlOpened: true, decidedBy: 'script' }), // 10:06
  question(4, { server: { name: 'bank', era: 'modern' }, message: 'Pending question' }), // 10:07, never answered
  fault({ server: 'bank', fault: 'undeclared-request', detail: 'sampling/createMessage was not declared' }), // 10:08
  answer(99, { action: 'cancel', decidedBy: 'timeout', content: undefined }), // 10:09, no question: orphan
  { kind: 'note', note: 'redaction', redact: true, detail: 'Redaction turned on' }, // 10:10
];

const ids = (items: HistoryItem[]) => items.map((i) => (i.kind === 'question' ? i.question.questionId : i.entry.kind));

describe('buildItems', () => {
  it('makes one item per question with its answer and how its call ended, and keeps everything else', async () => {
    const items = await journalOf(sample);
    expect(ids(items)).toEqual(['q1', 'q2', 'q3', 'q4', 'fault', 'answer', 'note']);
    const [q1, q2, q3, q4] = items as QuestionItem[];
    expect(q1!.answer?.content).toEqual({ confirm: true, note: 'Ship It' });
    expect(q1!.callEnd?.outcome).toBe('complete');
    expect(q2!.callEnd).toBe(q1!.callEnd); // both rounds of call c1
    expect(q2!.answer).toMatchObject({ action: 'decline', decidedBy: 'mute-rule', decidedByDetail: 'rule-7' });
    expect(q3!.answer).toMatchObject({ urlOpened: true, decidedBy: 'script' });
    expect(q4!.answer).toBeUndefined();
    expect(q1!.ts).toBe('2026-03-01T10:00:00.000Z');
  });

  it('a second answer to the same question is kept as its own item, not hidden', () => {
    const items = buildItems([
      { ...question(1), v: 1, seq: 1, ts: 't1', prev: '', hash: '' } as never,
      { ...answer(1), v: 1, seq: 2, ts: 't2', prev: '', hash: '' },
      { ...answer(1, { action: 'decline' }), v: 1, seq: 3, ts: 't3', prev: '', hash: '' },
    ]);
    expect(items.map((i) => i.kind)).toEqual(['question', 'other']);
  });
});

describe('filterItems', () => {
  let items: HistoryItem[];
  beforeEach(async () => {
    items = await journalOf(sample);
  });

  it('by server: its questions and faults, not notes', () => {
    expect(ids(filterItems(items, { server: 'bank' }))).toEqual(['q3', 'q4', 'fault']);
    expect(ids(filterItems(items, { server: 'github' }))).toEqual(['q1', 'q2', 'answer']);
  });

  it('by action, including unanswered', () => {
    expect(ids(filterItems(items, { action: 'accept' }))).toEqual(['q1', 'q3']);
    expect(ids(filterItems(items, { action: 'decline' }))).toEqual(['q2']);
    expect(ids(filterItems(items, { action: 'cancel' }))).toEqual(['answer']);
    expect(ids(filterItems(items, { action: 'none' }))).toEqual(['q4']);
  });

  it('by mode and by who decided', () => {
    expect(ids(filterItems(items, { mode: 'url' }))).toEqual(['q3']);
    // "Forms and links": every question, and no fault, orphan answer or note row.
    expect(ids(filterItems(items, { mode: 'question' }))).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(ids(filterItems(items, { decidedBy: 'mute-rule' }))).toEqual(['q2']);
    expect(ids(filterItems(items, { decidedBy: 'timeout' }))).toEqual(['answer']);
  });

  it('by time (since inclusive, until exclusive), as Date or string', () => {
    expect(ids(filterItems(items, { since: '2026-03-01T10:05:00Z' }))).toEqual(['q3', 'q4', 'fault', 'answer', 'note']);
    expect(ids(filterItems(items, { until: new Date('2026-03-01T10:02:00Z') }))).toEqual(['q1']);
    expect(ids(filterItems(items, { until: new Date('2026-03-01T10:02:00.001Z') }))).toEqual(['q1', 'q2']);
    expect(
      ids(filterItems(items, { since: '2026-03-01T10:03:00Z', until: '2026-03-01T10:08:00Z', server: 'bank' })),
    ).toEqual(['q3', 'q4']);
    expect(() => filterItems(items, { since: 'yesterday-ish' })).toThrow(RangeError);
  });

  it('by free text, case-insensitive and literal', () => {
    expect(ids(filterItems(items, { text: 'ship it' }))).toEqual(['q1']); // answer content
    expect(ids(filterItems(items, { text: 'SIGN IN' }))).toEqual(['q3']);
    expect(ids(filterItems(items, { text: 'a?b=(c)' }))).toEqual(['q3']); // URL, regex characters taken literally
    expect(ids(filterItems(items, { text: 'sampling/' }))).toEqual(['fault']);
    expect(ids(filterItems(items, { text: 'title="Issue 4"' }))).toEqual(['q4']); // arguments summary
    expect(ids(filterItems(items, { text: 'redaction' }))).toEqual(['note']);
    expect(filterItems(items, { text: '   ' })).toHaveLength(items.length);
  });

  it('combines filters', () => {
    expect(ids(filterItems(items, { server: 'github', action: 'accept', mode: 'form', text: 'issue 1' }))).toEqual([
      'q1',
    ]);
  });
});
