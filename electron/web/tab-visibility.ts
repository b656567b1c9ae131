// Whether anyone can see the web shell: a question asked while no tab is
// connected sits where nobody looks (issue 9, item 16: the gateway started
// `countersign web` where no browser could open, and the agent waited until
// it gave up). The shell tells this tracker what happens to its browser and
// tabs; the approval channel asks it before showing a gateway's question.
//
// A tab on its way is waited for, briefly: a browser the opener just started
// takes a few seconds to load the page, and a reloading tab reconnects in
// well under one. That wait ends the moment a tab connects, and it happens
// before the human could see anything, so it is not a decision timer.

import type { Visibility } from '../core/approval/approval-server';

export type { Visibility };

export interface TabVisibilityOptions {
  /** How long a browser the opener started may take to connect its tab. Default 20 s. */
  browserStartMs?: number;
  /** How long a tab that went away may take to come back (a reload). Default 3 s. */
  reconnectMs?: number;
  now?: () => number;
}

type Opener =
  { state: 'none' } | { state: 'opening' } | { state: 'opened'; at: number } | { state: 'failed'; reason: string };

export class TabVisibility {
  private tabs = 0;
  private opener: Opener = { state: 'none' };
  private lastTabAt: number | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly browserStartMs: number;
  private readonly reconnectMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;

  constructor(options: TabVisibilityOptions = {}) {
    this.browserStartMs = options.browserStartMs ?? 20_000;
    this.reconnectMs = options.reconnectMs ?? 3_000;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  /** The opener was started. */
  opening(): void {
    this.opener = { state: 'opening' };
    this.wake();
  }

  /** The opener handed the page over. */
  opened(): void {
    this.opener = { state: 'opened', at: this.now() };
    this.wake();
  }

  /** The opener failed: no browser will come. */
  openFailed(reason: string): void {
    this.opener = { state: 'failed', reason };
    this.wake();
  }

  tabConnected(): void {
    this.tabs += 1;
    this.lastTabAt = this.now();
    this.wake();
  }

  tabClosed(): void {
    this.tabs = Math.max(0, this.tabs - 1);
    this.lastTabAt = this.now();
    this.wake();
  }

  /** Visible now, invisible for sure, or undefined: a tab may still come (until the returned time). */
  private verdict(): Visibility | { until: number } {
    if (this.tabs > 0) return { visible: true };
    const o = this.opener;
    if (o.state === 'opening') return { until: Number.POSITIVE_INFINITY };
    if (o.state === 'opened' && this.lastTabAt === undefined) {
      const until = o.at + this.browserStartMs;
      if (this.now() < until) return { until };
    }
    if (this.lastTabAt !== undefined) {
      const until = this.lastTabAt + this.reconnectMs;
      if (this.now() < until) return { until };
    }
    if (o.state === 'failed')
      return { visible: false, reason: `the browser could not be opened (${o.reason}) and no tab is connected` };
    if (o.state === 'opened' && this.lastTabAt === undefined)
      return {
        visible: false,
        reason: `the browser was started but no tab connected within ${
          this.browserStartMs >= 1000 ? `${Math.round(this.browserStartMs / 1000)} s` : `${this.browserStartMs} ms`
        }`,
      };
    // Started without a browser (--no-open) and nobody opened the URL, or every tab was closed.
    const since = this.startedAt + this.reconnectMs;
    if (this.lastTabAt === undefined && this.now() < since) return { until: since };
    return { visible: false, reason: 'no browser tab is connected' };
  }

  /** Resolves as soon as the question could be seen, or it is clear nobody will see it. */
  async whenVisible(signal?: AbortSignal): Promise<Visibility> {
    for (;;) {
      const v = this.verdict();
      if ('visible' in v) return v;
      if (signal?.aborted) return { visible: false, reason: 'the question was cancelled' };
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = Number.isFinite(v.until) ? setTimeout(done, Math.max(0, v.until - this.now()) + 5) : undefined;
        this.waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
