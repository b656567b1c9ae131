// The history as the History view pages through it: newest first, loaded a
// page at a time around what is on screen (so 100k entries cost only the
// pages looked at), refreshed when the host appends. A refresh fetches the
// pages on screen and swaps them in together (old pages stay until then, so
// nothing flickers or shows half-shifted rows); a filter change starts over.
// Answers from an older query are dropped.
import type { HistoryFilter, HostApi } from '../../../shared/host-api/contract';
import { toHistoryItem, type HistoryItem } from './history-types';
import { errorText, Store } from './store';

/** The part of the HostApi the store uses. */
export type HistoryHostApi = Pick<HostApi, 'queryHistory' | 'exportHistory' | 'on'>;

/** The filter part of a query (paging is the store's business). */
export type HistoryQuery = Omit<HistoryFilter, 'offset' | 'limit'>;

export interface HistoryState {
  readonly query: HistoryQuery;
  /** Items matching the query; null until the first page arrived. */
  readonly total: number | null;
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
    super({ query: {}, total: null, version: 0, error: null, servers: [] });
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
    this.set({ query, total: null, error: null });
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
    const total = this.state.total;
    if (total === null || this.refreshing) return;
    const end = Math.min(this.wanted[1], total - 1);
    for (let page = Math.floor(this.wanted[0] / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      if (!this.pages.has(page) && !this.inFlight.has(page)) void this.load(page);
    }
  }

  /**
   * Loads the page holding item `index` (the selection, which may be off screen) without changing what is on screen.
   */
  ensureItem(index: number): void {
    const total = this.state.total;
    if (total === null || this.refreshing || index < 0 || index >= total) return;
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

  /** The filtered history in a file format (the whole filtered set, not just what is loaded). */
  export(format: 'jsonl' | 'csv'): Promise<{ data: string; filename: string }> {
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
        this.pages = new Map(results.map((r, i) => [wanted[i]!, r.items]));
        this.set({
          total: results[results.length - 1]!.total,
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

  private async fetch(page: number): Promise<{ total: number; items: HistoryItem[] }> {
    const result = await this.api.queryHistory({ ...this.state.query, offset: page * PAGE_SIZE, limit: PAGE_SIZE });
    return {
      total: result.total,
      items: result.entries.map(toHistoryItem).filter((i): i is HistoryItem => i !== null),
    };
  }

  private async load(page: number): Promise<void> {
    const generation = this.generation;
    this.inFlight.add(page);
    try {
      const { total, items } = await this.fetch(page);
      if (generation !== this.generation) return;
      this.pages.set(page, items);
      this.evict(page);
      this.set({ total, version: this.state.version + 1, error: null, servers: this.withServers(items) });
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
      const name = item.kind === 'question' ? item.question.server.name : item.entry.server;
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
