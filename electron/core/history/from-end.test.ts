// Items read from the journal's end are the items buildItems makes from the
// whole journal, newest first: questions with their answers and call ends,
// and the rest as rows of their own, whatever the chunk and file sizes.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answer, callEnd, question, tempDir } from './fixtures/helpers';
import { writeBulkJournal } from './fixtures/bulk-journal';
import { mixedEntries } from './fixtures/mixed-history';
import { itemsFromEnd, newestItems } from './from-end';
import { NewestFirstItems } from './newest-first';
import { buildItems, filterItems, type HistoryFilter, type HistoryItem } from './query';
import { readJournal } from './reader';
import type { EntryInput, JournalEntry } from './types';
import { encodeEntry } from './chain';
import { GENESIS_HASH } from './types';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

async function allFromEnd(filter: HistoryFilter = {}, chunkBytes?: number): Promise<HistoryItem[]> {
  const out: HistoryItem[] = [];
  for await (const batch of itemsFromEnd(dir, filter, { chunkBytes })) out.push(...batch);
  return out;
}

async function expectedNewestFirst(filter: HistoryFilter = {}): Promise<HistoryItem[]> {
  return filterItems(buildItems((await readJournal(dir)).entries), filter).reverse();
}

/** Entries with headers, as read back, without writing them anywhere. */
function chained(inputs: EntryInput[]): JournalEntry[] {
  let prev = GENESIS_HASH;
  return inputs.map((input, i) => {
    const enc = encodeEntry(input as Parameters<typeof encodeEntry>[0], i + 1, new Date(i * 1000).toISOString(), prev);
    prev = enc.hash;
    return enc.entry;
  });
}

describe('itemsFromEnd', () => {
  it.each([1, 2, 3])('matches buildItems on a messy history (seed %i), across files and chunks', async (seed) => {
    const entries = mixedEntries(3000, seed);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 16 * 1024 });
    const expected = await expectedNewestFirst();
    // The history really has what the reader must get right.
    expect(expected.some((i) => i.kind === 'question' && i.answer && i.callEnd)).toBe(true);
    expect(expected.some((i) => i.kind === 'other' && i.entry.kind === 'answer')).toBe(true);
    expect(expected.some((i) => i.kind === 'other' && i.entry.kind === 'call-end')).toBe(true);
    expect(expected.some((i) => i.kind === 'question' && !i.answer)).toBe(true);
    expect(await allFromEnd({}, 1000)).toEqual(expected);
  });

  it('applies filters to finished items (a question with its answer)', async () => {
    const entries = mixedEntries(2000, 7);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 32 * 1024 });
    for (const filter of [
      { action: 'accept' },
      { action: 'none' },
      { server: 'linear' },
      { mode: 'question' },
      { text: 'note 1' },
      { since: new Date(500_000 + Date.UTC(2026, 0, 1)).toISOString() },
    ] as HistoryFilter[]) {
      expect(await allFromEnd(filter, 4096)).toEqual(await expectedNewestFirst(filter));
    }
  });

  it('newestItems stops after the newest few', async () => {
    const entries = mixedEntries(2000, 9);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 32 * 1024 });
    expect(await newestItems(dir, {}, 10)).toEqual((await expectedNewestFirst()).slice(0, 10));
  });
});

describe('NewestFirstItems', () => {
  const feed = (entries: JournalEntry[], builder = new NewestFirstItems()) => {
    const out: HistoryItem[] = [];
    for (const e of [...entries].reverse()) {
      builder.push(e);
      for (let i = builder.take(); i; i = builder.take()) out.push(i);
    }
    builder.end();
    for (let i = builder.take(); i; i = builder.take()) out.push(i);
    return out;
  };

  it('a call end that counts its questions stops waiting once it found them', () => {
    const entries = chained([
      question(1, { callId: 'c1' }),
      answer(1, { callId: 'c1' }),
      callEnd(1, { questions: 1 }),
      callEnd(2, { questions: 0 }),
    ]);
    const builder = new NewestFirstItems();
    builder.push(entries[3]!);
    // A call that asked nothing is a row at once; nothing older is needed.
    expect(builder.take()).toMatchObject({ kind: 'other', seq: 4 });
    builder.push(entries[2]!);
    builder.push(entries[1]!);
    // The call end and the answer wait for question 1.
    expect(builder.take()).toBeUndefined();
    builder.push(entries[0]!);
    expect(builder.take()).toMatchObject({ kind: 'question', seq: 1, answer: { seq: 2 }, callEnd: { seq: 3 } });
    expect(builder.take()).toBeUndefined();
  });

  it('gives up waiting after its look-back: the entry becomes a row of its own', () => {
    const entries = chained([
      question(1, { callId: 'c1' }),
      ...Array.from({ length: 20 }, (_, i) => callEnd(100 + i, { questions: 0 })),
      answer(1, { callId: 'c1' }),
    ]);
    const items = feed(entries, new NewestFirstItems(5, 5));
    expect(items[0]).toMatchObject({ kind: 'other', seq: 22, entry: { kind: 'answer' } });
    expect(items.at(-1)).toMatchObject({ kind: 'question', seq: 1 });
    expect(items.at(-1)).not.toHaveProperty('answer');
    // Without the bound it folds, as buildItems does.
    expect(feed(entries)).toEqual(buildItems(entries).reverse());
  });

  it("an answer that names its question's seq stops waiting once the read passed it", () => {
    const entries = chained([
      callEnd(50, { questions: 0 }),
      ...Array.from({ length: 30 }, (_, i) => callEnd(100 + i, { questions: 0 })),
      answer(7, { questionSeq: 1 }),
    ]);
    const builder = new NewestFirstItems();
    builder.push(entries.at(-1)!);
    expect(builder.take()).toBeUndefined();
    for (const e of entries.slice(1, -1).reverse()) builder.push(e);
    expect(builder.take()).toBeUndefined();
    // Seq 1 is read and is not question 7: the answer is a row of its own, long before any look-back.
    builder.push(entries[0]!);
    expect(builder.take()).toMatchObject({ kind: 'other', seq: 32, entry: { kind: 'answer' } });
  });

  it('an older call end (no count) folds into questions within its look-back, else is a row', () => {
    const near = chained([question(1, { callId: 'c1' }), answer(1, { callId: 'c1' }), callEnd(1)]);
    expect(feed(near)).toEqual(buildItems(near).reverse());
    const far = chained([question(1, { callId: 'c1' }), ...Array.from({ length: 10 }, () => callEnd(9)), callEnd(1)]);
    const items = feed(far, new NewestFirstItems(100, 3));
    expect(items[0]).toMatchObject({ kind: 'other', entry: { kind: 'call-end', callId: 'c1' } });
  });

  it('duplicate answers: the first folds, later ones stay rows (as buildItems)', () => {
    const entries = chained([question(1), answer(1), answer(1, { action: 'decline' }), answer(2)]);
    expect(feed(entries)).toEqual(buildItems(entries).reverse());
  });
});
