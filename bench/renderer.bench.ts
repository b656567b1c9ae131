// Renderer benchmark (issue goals: a question painted within 50 ms of its
// arrival, median; painted within one display frame (16.7 ms) of an arrival at
// the start of a frame, p95; the app bundle at most 600 kB gzip), plus the History view
// over 100k journal entries (as JournalHistory writes them) through the real
// web shell: open, filter, End, and frame times while scrolling. The bench runner calls
// benchRenderer(); run alone with:
//   npx tsx -e "import('./bench/renderer.bench.ts').then(m => m.benchRenderer()).then(r => console.table(r))"
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, startAppShell } from '../test/browser/app-shell';
import { buildPrivateRenderer, launchChromium, measurePaintLatency } from '../test/browser/paint-latency';
import { fillAppJournal } from './history.bench';
import type { Figure } from './sections';

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// The in-page code goes as source text: tsx would wrap functions handed to
// page.evaluate in helpers the page does not have, and the page's CSP forbids
// building functions from strings there.

/**
 * Milliseconds from `act` (statements run in the page) until `done` (an
 * expression) holds, measured in the page and ending at the next frame after
 * it holds (the frame that paints it).
 */
function timeInPage(page: Page, act: string, done: string): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const t0 = performance.now();
    ${act};
    const poll = () => {
      if (${done}) return requestAnimationFrame(() => resolve(performance.now() - t0));
      if (performance.now() - t0 > 30000) return reject(new Error('timed out: ' + ${JSON.stringify(done)}));
      requestAnimationFrame(poll);
    };
    poll();
  })`) as Promise<number>;
}

/**
 * Frame intervals while the list is scrolled by `step` pixels per frame for `frames` frames, and rows not yet
 * loaded seen per frame.
 */
function scrollFrames(page: Page, frames: number, step: number): Promise<{ intervals: number[]; blankRows: number }> {
  return page.evaluate(`new Promise((resolve) => {
    const list = document.querySelector('.history-list');
    const intervals = [];
    let blankRows = 0;
    let last = performance.now();
    let n = 0;
    const tick = (now) => {
      intervals.push(now - last);
      last = now;
      blankRows += list.querySelectorAll('.history-row-loading').length;
      if (++n >= ${frames}) return resolve({ intervals: intervals.slice(1), blankRows });
      list.scrollTop += ${step};
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`) as Promise<{ intervals: number[]; blankRows: number }>;
}

/** The History view over `entries` journal entries, through the web shell. */
export async function benchHistoryView(rendererDir: string, entries = 100_000): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-renderer-bench-'));
  const launched = await launchChromium();
  let app: Awaited<ReturnType<typeof startAppShell>> | undefined;
  try {
    await fillAppJournal(join(dataDir, 'history'), entries);
    app = await startAppShell({ rendererDir, dataDir, servers: {}, settings: { theme: 'light', language: 'en' } });
    // The exact number of items: a read past the end reaches the journal's first entry (`complete`).
    const exactTotal = async (filter: Record<string, string> = {}) => {
      const r = (await app!.service.invoke('queryHistory', { ...filter, offset: 10_000_000, limit: 1 })) as {
        total: number;
        complete: boolean;
      };
      if (!r.complete) throw new Error(`queryHistory did not reach the first entry (total so far ${r.total})`);
      return r.total;
    };
    const total = await exactTotal();
    const { page } = await openApp(launched.browser, app, { viewport: { width: 1280, height: 820 } });
    const openMs = await timeInPage(
      page,
      `[...document.querySelectorAll('nav .nav-item')].find((b) => b.textContent === 'History').click()`,
      `document.querySelector('.history-row[aria-posinset="1"] .pill') !== null`,
    );
    // The count reads "N entries", or "N+ entries (more load as you scroll)" while older pages are still to be read.
    const countNow = `(document.querySelector('.history-count')?.textContent ?? '')`;
    const unfiltered = (await page.evaluate(countNow)) as string;
    const filterMs = await timeInPage(
      page,
      `const s = [...document.querySelectorAll('[role=search] select')];
       const set = (el, v) => { Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(el, v); el.dispatchEvent(new Event('change', { bubbles: true })); };
       set(s[0], 'github'); set(s[1], 'accept');`,
      `${countNow} !== ${JSON.stringify(unfiltered)} && document.querySelector('.history-row[aria-posinset="1"] .history-row-server')?.textContent === 'github'`,
    );
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await timeInPage(page, '', `${countNow} === ${JSON.stringify(unfiltered)}`); // back to the whole list (not kept)
    await page.getByRole('listbox').focus();
    // End goes to the last row found so far: while older pages are unread that is the loading row after the
    // items found ("N+ entries"), which its page then fills; once the read is complete, the oldest item.
    const found = (await page.evaluate(countNow)) as string;
    const endRow = found.includes('+') ? Number(found.split('+')[0]!.replace(/\D/g, '')) + 1 : total;
    const endMs = await timeInPage(
      page,
      `document.querySelector('[role=listbox]').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }))`,
      `document.querySelector('.history-row[aria-posinset="${endRow}"] .pill') !== null`,
    );
    await page.keyboard.press('Home');
    await page.locator('.history-row[aria-posinset="1"] .pill').waitFor();
    const scroll = await scrollFrames(page, 180, 640);
    const sorted = [...scroll.intervals].sort((a, b) => a - b);
    return [
      {
        name: `history view: open on ${total} items (${entries} entries), first rows painted`,
        value: round(openMs),
        unit: 'ms',
        goal: null,
      },
      {
        name: `history view: filter server+outcome over ${total} items, rows painted`,
        value: round(filterMs),
        unit: 'ms',
        goal: null,
      },
      {
        name:
          endRow === total
            ? `history view: jump to the oldest of ${total} items (End), row painted`
            : `history view: End to the last of ${endRow - 1} items found so far (${total} in all), row painted`,
        value: round(endMs),
        unit: 'ms',
        goal: null,
      },
      {
        name: 'history view: frame interval while scrolling 10 rows/frame, median',
        value: round(percentile(sorted, 50)),
        unit: 'ms',
        goal: null,
      },
      {
        name: 'history view: frame interval while scrolling 10 rows/frame, p95',
        value: round(percentile(sorted, 95)),
        unit: 'ms',
        goal: 50,
      },
      {
        name: 'history view: rows still loading per frame while scrolling (mean)',
        value: round(scroll.blankRows / scroll.intervals.length, 2),
        unit: 'rows',
        goal: null,
      },
    ];
  } finally {
    await launched.close();
    if (app) await app.close();
    else await rm(dataDir, { recursive: true, force: true });
  }
}

/** Question paint latency and bundle size (test/browser/paint-latency.ts), then the History view over 100k entries. */
export async function benchRenderer(options: { runs?: number; historyEntries?: number } = {}): Promise<Figure[]> {
  const build = await buildPrivateRenderer();
  try {
    const paint = await measurePaintLatency({ runs: options.runs ?? 50, dir: build.dir });
    const n = paint.samples.length;
    const ms = (name: string, value: number, goal: number | null = null): Figure => ({
      name,
      value: round(value),
      unit: 'ms',
      goal,
    });
    return [
      // Arriving at a random moment, as a server's question does: this includes waiting for the next frame to
      // start, which the renderer does not control.
      ms(`renderer: question arriving at a random moment to dialog painted, median of ${n}`, paint.medianMs, 50),
      ms('renderer: question arriving at a random moment to dialog painted, p95', paint.p95Ms),
      ms('renderer: of those, its work (arrival to dialog in the DOM), p95', paint.unaligned.work.p95Ms),
      ms('renderer: of those, the wait for the next frame to start, p95', paint.unaligned.wait.p95Ms),
      ms("renderer: of those, the painting frame's style, layout and paint, p95", paint.unaligned.frame.p95Ms),
      // Arriving at the start of a frame (in its requestAnimationFrame callback): the renderer's work and that
      // frame's rendering, nothing else. Within one frame: painted in that very frame, in at most 16.7 ms.
      ms(
        `renderer: question arriving at a frame's start to dialog painted, median of ${n}`,
        paint.inFrame.painted.medianMs,
      ),
      ms("renderer: question arriving at a frame's start to dialog painted, p95", paint.inFrame.painted.p95Ms, 16.7),
      {
        name: 'renderer: of those, painted in a later frame than the one it arrived in',
        value: paint.inFrame.framesMissedSamples,
        unit: `of ${n}`,
        goal: null,
      },
      {
        name: 'renderer: app bundle (index.html and what it loads), gzip',
        value: round(paint.bundleGzipBytes / 1024),
        unit: 'kB',
        goal: 600,
      },
      ...(await benchHistoryView(build.dir, options.historyEntries ?? 100_000)),
    ];
  } finally {
    await build.remove();
  }
}
