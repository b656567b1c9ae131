// The benches' sample journal: appEntry writes what JournalHistory writes (an answer names its
// question's seq, a call end counts its questions), so the History view's first page over it reads
// a few chunks from the journal's end. sampleEntry alone is an older journal with an answer whose
// question is missing every 150 entries: each is looked for 100,000 entries back, so the first page
// waits for the whole journal (the renderer bench measured that, ~10× its figures, until it used appEntry).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../electron/core/history/fixtures/helpers';
import { itemsFromEnd } from '../electron/core/history/from-end';
import { HistoryJournal, readJournal } from '../electron/core/history/index';
import { fillAppJournal, sampleEntry } from './history.bench';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const ENTRIES = 6000;

/** Entries read from the journal's end by the time the newest `items` items are out. */
async function entriesReadFor(items: number): Promise<number> {
  const progress = { entries: 0 };
  let out = 0;
  for await (const batch of itemsFromEnd(dir, {}, { chunkBytes: 64 * 1024, progress })) {
    out += batch.length;
    if (out >= items) return progress.entries;
  }
  return progress.entries;
}

describe('the benches’ sample journal', () => {
  it('names each answer’s question and counts each call’s questions as JournalHistory does', async () => {
    await fillAppJournal(dir, 3000);
    const { entries } = await readJournal(dir);
    const questions = new Map<string, { seq: number; callId?: string }>();
    const asked = new Map<string, number>();
    for (const e of entries) {
      if (e.kind === 'question') {
        questions.set(e.questionId, { seq: e.seq, callId: e.callId });
        if (e.callId) asked.set(e.callId, (asked.get(e.callId) ?? 0) + 1);
      } else if (e.kind === 'answer') {
        const q = questions.get(e.questionId);
        // Where its question was written, the answer names that seq (else a seq that is not its question).
        if (q) expect(e.questionSeq).toBe(q.seq);
        else expect(entries[e.questionSeq! - 1]).toMatchObject({ seq: e.questionSeq, kind: 'fault' });
      } else if (e.kind === 'call-end') {
        expect(e.questions).toBe(asked.get(e.callId) ?? 0);
      }
    }
    expect(questions.size).toBeGreaterThan(900);
  });

  it('the first page of the newest 200 items reads a few chunks from the end, not the journal', async () => {
    await fillAppJournal(dir, ENTRIES);
    expect(await entriesReadFor(200)).toBeLessThan(ENTRIES / 4);
  });

  it('without those fields (sampleEntry) the first page waits for the whole journal', async () => {
    const journal = await HistoryJournal.open(dir);
    for (let i = 0; i < ENTRIES; i += 1000)
      await Promise.all(Array.from({ length: 1000 }, (_, j) => journal.append(sampleEntry(i + j))));
    await journal.close();
    // The newest answer without its question holds back every item older than it.
    expect(await entriesReadFor(200)).toBe(ENTRIES);
  });
});
