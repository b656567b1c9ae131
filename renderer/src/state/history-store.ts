// The history as the History view pages through it: newest first, loaded a
// page at a time around what is on screen (so a million entries cost only the
// pages looked at), refreshed when the host appends. A refresh fetches the
// pages on screen and swaps them in together (old pages stay until then, so
// nothing flickers or shows half-shifted rows); a filter change starts over.
// Answers from an older query are dropped. The host reads from the journal's
// end, so until it has reached the first entry the total is only how many it
// found so far: the list then ends in a loading row, and scrolling on loads more.
import type { HistoryItem } from '../../../shared/history/items';
import type { HistoryFilter, HostApi } from '../../../shared/host-api/contract';
import { errorText, Store } from './store';

/** The part of the HostApi the store uses. */
export type HistoryHostApi = Pick<HostApi, 'queryHistory' | 'exportHistory' | 'verifyHistory' | 'on'>;

/** The filter part of a query (paging is the store's business). */
export type HistoryQuery = Omit<HistoryFilter, 'offset' | 'limit'>;

export interface HistoryState {
  readonly query: HistoryQuery;
  /** Items matching the query (found so far, unless `complete`); null until the first page arrived. */
  readonly total: number | null;
  /** Whether `total` is all there is (the host read the whole history for this query). */
  readonly complete: boolean;
  /** Rows the list has: the total, plus a loading row while more may follow. */
  readonly rows: number;
  /**
   * Items that arrived on top in the last refresh (so the view keeps the same entry in place), with an id
   * that changes on every such refresh.
   */
  readonly addedOnTop: { readonly id: number; readonly count: number };
  /** Bumped whenever loaded items change, so views re-read them. */
  readonly version: number;
  readonly error: string | null;
  /** Server names met in the pages loaded so far (sorted), for the server filter. */
  readonly servers: readonly string[];
}

/** Entries per request. */
export const PAGE_SIZE = 100;
/** Pages kept in memory; the rest are fetched again when scrolled back to. */
const MAX_PAGES = 60;
/** Appends are coalesced for this long before a refresh. */
const REFRESH_DELAY_MS = 120;

/** An event-emitting, paging store over queryHistory. */
export class HistoryStore extends Store<HistoryState> {
  private pages = new Map<number, HistoryItem[]>();
  private inFlight = new Set<number>();
  /** True while a refresh is on its way (single page loads wait for it). */
  private refreshing = false;
  private generation = 0;
  private wanted: [number, number] = [0, 0];
  private off: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly api: HistoryHostApi,
    private readonly refreshDelayMs = REFRESH_DELAY_MS,
  ) {
    super({
      query: {},
      total: null,
      complete: false,
      rows: 0,
      addedOnTop: { id: 0, count: 0 },
      version: 0,
      error: null,
      servers: [],
    });
  }

  /** Starts following appends and loads the first page. Safe to call again. */
  activate(): void {
    if (this.off) return;
    this.off = this.api.on('historyAppended', () => this.scheduleRefresh());
    this.reload(false);
  }

  stop(): void {
    this.off?.();
    this.off = null;
    clearTimeout(this.timer);
  }

  /** Changes the filter: starts over from the newest entry. */
  setQuery(query: HistoryQuery): void {
    this.set({ query, total: null, complete: false, rows: 0, error: null });
    this.wanted = [0, 0];
    this.reload(false);
  }

  /** The item at `index` (0 = newest), if its page is loaded. */
  itemAt(index: number): HistoryItem | undefined {
    const page = Math.floor(index / PAGE_SIZE);
    const at = index % PAGE_SIZE;
    return this.pages.get(page)?.[at];
  }

  /** Loads whatever of items first..last (inclusive) is missing. */
  ensureRange(first: number, last: number): void {
    this.wanted = [Math.max(0, first), Math.max(0, last)];
    if (this.state.total === null || this.refreshing) return;
    const end = Math.min(this.wanted[1], this.state.rows - 1);
    for (let page = Math.floor(this.wanted[0] / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      if (!this.pages.has(page) && !this.inFlight.has(page)) void this.load(page);
    }
  }

  /**
   * Loads the page holding item `index` (the selection, which may be off screen) without changing what is on screen.
   */
  ensureItem(index: number): void {
    if (this.state.total === null || this.refreshing || index < 0 || index >= this.state.rows) return;
    const page = Math.floor(index / PAGE_SIZE);
    if (!this.pages.has(page) && !this.inFlight.has(page)) void this.load(page);
  }

  /** True once the History view has asked for entries. */
  get active(): boolean {
    return this.off !== null;
  }

  /** Re-reads the visible pages now (also what historyAppended triggers, coalesced). */
  refresh(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.reload(true);
  }

  /** The filtered history in a file format (the whole filtered set, not just what is loaded): text, or a link. */
  /** Check the whole chain (not just the filtered entries). */
  verify(): ReturnType<HostApi['verifyHistory']> {
    return this.api.verifyHistory({});
  }

  export(format: 'jsonl' | 'csv'): ReturnType<HostApi['exportHistory']> {
    return this.api.exportHistory({ filter: { ...this.state.query }, format });
  }

  private scheduleRefresh(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.refresh(), this.refreshDelayMs);
  }

  private reload(keepOnScreen: boolean): void {
    const generation = ++this.generation;
    this.inFlight = new Set();
    const first = Math.floor(this.wanted[0] / PAGE_SIZE);
    const wanted: number[] = [];
    for (let page = first; page <= Math.floor(this.wanted[1] / PAGE_SIZE); page++) wanted.push(page);
    if (!keepOnScreen || this.state.total === null) {
      this.refreshing = false;
      this.pages = new Map();
      this.set({ version: this.state.version + 1 });
      for (const page of wanted) void this.load(page);
      return;
    }
    this.refreshing = true;
    Promise.all(wanted.map((page) => this.fetch(page))).then(
      (results) => {
        if (generation !== this.generation) return;
        this.refreshing = false;
        const pages = new Map(results.map((r, i) => [wanted[i]!, r.items]));
        const added = this.addedSince(pages);
        this.pages = pages;
        const last = results[results.length - 1]!;
        this.set({
          ...this.counts(last),
          ...(added > 0 ? { addedOnTop: { id: this.state.addedOnTop.id + 1, count: added } } : {}),
          version: this.state.version + 1,
          error: null,
          servers: this.withServers(results.flatMap((r) => r.items)),
        });
        this.ensureRange(...this.wanted);
      },
      (err: unknown) => {
        if (generation !== this.generation) return;
        this.refreshing = false;
        this.set({ error: errorText(err) });
      },
    );
  }

  private async fetch(page: number): Promise<{ total: number; complete: boolean; items: HistoryItem[] }> {
    const result = await this.api.queryHistory({ ...this.state.query, offset: page * PAGE_SIZE, limit: PAGE_SIZE });
    return { total: result.total, complete: result.complete, items: result.entries };
  }

  /** Total, completeness and row count from a page's answer (a total never shrinks below what is loaded). */
  private counts(r: { total: number; complete: boolean }): Pick<HistoryState, 'total' | 'complete' | 'rows'> {
    return { total: r.total, complete: r.complete, rows: r.complete ? r.total : r.total + 1 };
  }

  /**
   * How far the items on screen moved down in a refresh: where the first item loaded before is now.
   * Appends land on top, so that is how many arrived there (0 when it cannot be found).
   */
  private addedSince(next: Map<number, HistoryItem[]>): number {
    let anchor: { index: number; seq: number } | undefined;
    for (const [page, items] of [...this.pages].sort((a, b) => a[0] - b[0])) {
      if (items[0]) {
        anchor = { index: page * PAGE_SIZE, seq: items[0].seq };
        break;
      }
    }
    if (!anchor) return 0;
    for (const [page, items] of next) {
      const at = items.findIndex((i) => i.seq === anchor.seq);
      if (at !== -1) return Math.max(0, page * PAGE_SIZE + at - anchor.index);
    }
    return 0;
  }

  private async load(page: number): Promise<void> {
    const generation = this.generation;
    this.inFlight.add(page);
    try {
      const result = await this.fetch(page);
      if (generation !== this.generation) return;
      const { items } = result;
      this.pages.set(page, items);
      this.evict(page);
      this.set({
        ...this.counts(result),
        version: this.state.version + 1,
        error: null,
        servers: this.withServers(items),
      });
      // A first page only tells the total; fetch the rest of what is on screen.
      this.ensureRange(...this.wanted);
    } catch (err) {
      if (generation === this.generation) this.set({ error: errorText(err) });
    } finally {
      if (generation === this.generation) this.inFlight.delete(page);
    }
  }

  private withServers(items: readonly HistoryItem[]): readonly string[] {
    const known = new Set(this.state.servers);
    const before = known.size;
    for (const item of items) {
      const name =
        item.kind === 'question'
          ? item.question.server.name
          : item.entry.kind === 'note'
            ? undefined
            : item.entry.server;
      if (name) known.add(name);
    }
    return known.size === before ? this.state.servers : [...known].sort();
  }

  private evict(keep: number): void {
    if (this.pages.size <= MAX_PAGES) return;
    const [first, last] = this.wanted.map((i) => Math.floor(i / PAGE_SIZE)) as [number, number];
    // Drop the pages farthest from what is on screen.
    const far = [...this.pages.keys()]
      .filter((p) => p !== keep && (p < first || p > last))
      .sort((a, b) => Math.abs(b - keep) - Math.abs(a - keep));
    for (const p of far.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(p);
  }
}
