// Paging from the newest entry: pages join up into the whole list, later pages
// continue the same read, and anything appended starts over so nothing is stale.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answer, question, tempDir } from './fixtures/helpers';
import { writeBulkJournal } from './fixtures/bulk-journal';
import { mixedEntries } from './fixtures/mixed-history';
import { HistoryJournal } from './journal';
import { HistoryPager } from './pager';
import { buildItems, filterItems, type HistoryFilter } from './query';
import { readJournal } from './reader';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const expected = async (filter: HistoryFilter = {}) =>
  filterItems(buildItems((await readJournal(dir)).entries), filter).reverse();

describe('HistoryPager', () => {
  it('pages in order join up into the whole list; the total is exact once the read is complete', async () => {
    const entries = mixedEntries(2500, 11);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 16 * 1024 });
    const all = await expected();
    const pager = new HistoryPager(dir, { chunkBytes: 2048 });
    const seen = [];
    let page;
    let offset = 0;
    do {
      page = await pager.page({}, offset, 100);
      seen.push(...page.items);
      offset += 100;
      // Before the end, the total only says how many were found so far.
      if (!page.complete) expect(page.total).toBeGreaterThanOrEqual(offset);
    } while (page.items.length === 100);
    expect(seen).toEqual(all);
    expect(page).toMatchObject({ complete: true, total: all.length });
    // A page already read (a refresh of what is on screen) comes from what was kept.
    expect((await pager.page({}, 300, 50)).items).toEqual(all.slice(300, 350));
    // Earlier than what was kept: a new read from the end, same answer.
    const small = new HistoryPager(dir, { chunkBytes: 2048, keepBehind: 10 });
    for (let o = 0; o < all.length; o += 400) await small.page({}, o, 100);
    expect((await small.page({}, 0, 100)).items).toEqual(all.slice(0, 100));
  });

  it('a first page asked deep (a jump to the end), or past the end, counts only the items read', async () => {
    const entries = mixedEntries(16000, 13);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 64 * 1024 });
    const all = await expected();
    expect(all.length).toBeGreaterThan(6000);
    const deep = all.length - 50;
    // A fresh read whose first page is deep: items let go on the way are counted, never more.
    const jump = new HistoryPager(dir, { chunkBytes: 4096, keepBehind: 10 });
    expect(await jump.page({}, deep, 100)).toEqual({ items: all.slice(deep), total: all.length, complete: true });
    const past = new HistoryPager(dir, { chunkBytes: 4096, keepBehind: 10 });
    expect(await past.page({}, 10_000_000, 1)).toEqual({ items: [], total: all.length, complete: true });
  });

  it('a filter has its own read; pages of it match the filtered list', async () => {
    const entries = mixedEntries(1500, 12);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 16 * 1024 });
    const pager = new HistoryPager(dir, { chunkBytes: 4096 });
    const accepted = await expected({ action: 'accept' });
    expect((await pager.page({ action: 'accept' }, 20, 30)).items).toEqual(accepted.slice(20, 50));
    expect((await pager.page({}, 0, 5)).items).toEqual((await expected()).slice(0, 5));
    expect((await pager.page({ action: 'accept' }, 0, 10)).items).toEqual(accepted.slice(0, 10));
  });

  it('sees what was appended since the last page, by any writer, and the answer joins its question', async () => {
    const journal = await HistoryJournal.open(dir);
    await journal.append(question(1));
    const pager = new HistoryPager(dir);
    expect((await pager.page({}, 0, 10)).items).toMatchObject([{ kind: 'question', seq: 1 }]);
    const other = await HistoryJournal.open(dir);
    await other.append(answer(1));
    await other.append(question(2));
    const page = await pager.page({}, 0, 10);
    expect(page).toMatchObject({ total: 2, complete: true });
    expect(page.items).toMatchObject([
      { seq: 3, kind: 'question' },
      { seq: 1, answer: { seq: 2 } },
    ]);
    await Promise.all([journal.close(), other.close()]);
  });

  it('serves overlapping requests one at a time with the right pages', async () => {
    const entries = mixedEntries(1200, 13);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 16 * 1024 });
    const all = await expected();
    const pager = new HistoryPager(dir, { chunkBytes: 1024 });
    const pages = await Promise.all([0, 1, 2, 3].map((p) => pager.page({}, p * 50, 50)));
    expect(pages.flatMap((p) => p.items)).toEqual(all.slice(0, 200));
  });
});
