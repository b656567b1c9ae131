// Pages of the history, newest first, for a view that scrolls: page after page
// continues one read from the journal's end instead of starting over, and the
// pages just served are kept, so a refresh of what is on screen costs nothing.
// Anything appended (by this process or any other) starts the read over: the
// newest pages are cheap, and an answer that came in may complete an item on any
// of them. Memory stays bounded: only a window of items around the last page is kept.

import { itemsFromEnd, journalSnapshot, sameSnapshot, type JournalSnapshot } from './from-end';
import type { HistoryFilter, HistoryItem } from './query';

export interface HistoryPage {
  items: HistoryItem[];
  /** Items matching the filter: exact when `complete`, else how many were found so far (at least offset + items). */
  total: number;
  /** True once the read reached the journal's first entry. */
  complete: boolean;
}

export interface PagerOptions {
  chunkBytes?: number;
  /**
   * Entries always read before a page is served (default 2,000): a history that small is then
   * complete, with an exact total, on its first page; a bigger one costs only this much more.
   */
  readAhead?: number;
  /** Items kept before the page last asked for (default 2,000). */
  keepBehind?: number;
}

interface Scan {
  key: string;
  snapshot: JournalSnapshot;
  source: AsyncGenerator<HistoryItem[]>;
  progress: { entries: number };
  /** Items kept, `base` being the index (0 = newest) of kept[0]. */
  kept: HistoryItem[];
  base: number;
  done: boolean;
}

/** Serves offset/limit pages of one journal folder; one read in progress at a time. */
export class HistoryPager {
  private scan: Scan | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly options: PagerOptions = {},
  ) {}

  /** Items offset..offset+limit-1 (0 = newest) of those matching `filter`. */
  page(filter: HistoryFilter, offset: number, limit: number): Promise<HistoryPage> {
    const run = this.chain.then(() => this.pageNow(filter, offset, limit));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Forget the read in progress (the journal changed in a way a snapshot cannot see). */
  reset(): void {
    void this.scan?.source.return(undefined);
    this.scan = undefined;
  }

  private async pageNow(filter: HistoryFilter, offset: number, limit: number): Promise<HistoryPage> {
    const key = JSON.stringify(filter);
    const snapshot = await journalSnapshot(this.dir);
    let scan = this.scan;
    if (!scan || scan.key !== key || !sameSnapshot(scan.snapshot, snapshot) || offset < scan.base) {
      this.reset();
      const progress = { entries: 0 };
      scan = {
        key,
        snapshot,
        progress,
        source: itemsFromEnd(this.dir, filter, { snapshot, chunkBytes: this.options.chunkBytes, progress }),
        kept: [],
        base: 0,
        done: false,
      };
      this.scan = scan;
    }
    const want = offset + limit;
    // One page more than asked: a small history is then complete at once, and a big one says there is more.
    const readAhead = this.options.readAhead ?? 2000;
    while (!scan.done && (scan.base + scan.kept.length < want + limit || scan.progress.entries < readAhead)) {
      const next = await scan.source.next();
      if (next.done) scan.done = true;
      else for (const item of next.value) scan.kept.push(item);
      // Items far before the page will not be asked for again soon: let them go as the read goes on.
      // Only items already read can be let go: a first page asked deep (a jump to the end) must not
      // count as read what is still ahead (it made the total and the page's items wrong).
      const drop = Math.min(scan.kept.length, offset - (this.options.keepBehind ?? 2000) - scan.base);
      if (drop > 4096) {
        scan.kept = scan.kept.slice(drop);
        scan.base += drop;
      }
    }
    const found = scan.base + scan.kept.length;
    const items = scan.kept.slice(Math.max(0, offset - scan.base), want - scan.base);
    return { items, total: found, complete: scan.done };
  }
}
