// History at a million entries (issue 9 item 11): goals `history --limit 10`
// ≤ 200 ms, app start (history open + first page of the History view) ≤ 1 s
// and ≤ 300 MB RSS, a full export streamed in constant memory. Each figure is
// measured in a fresh process, next to the same measurement on a 10k-entry
// journal: the ratio shows what the journal's size costs. The 1M-entry
// journal is written directly with the journal's own encoder (no fsync per
// entry) and kept under .cache/ between runs. Run alone with:
//   npx tsx bench/run.ts "million"

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { writeBulkJournal } from '../electron/core/history/fixtures/bulk-journal';
import { appEntry } from './history.bench';
import type { Figure } from './sections';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const child = join(root, 'bench', 'history-scale-child.ts');
/** Bump when appEntry (sampleEntry) or the line format changes, so a stale cached journal is not measured. */
const FORMAT = 2;
/** The old-space cap the streamed export must fit in at 1M entries. */
const HEAP_CAP_MIB = 64;

/** The cached journal of `count` entries (written once, in seconds). */
async function journal(count: number): Promise<{ dir: string; writeMs: number | null }> {
  const dir = join(root, '.cache', 'bench-history', `v${FORMAT}-${count}`);
  if (existsSync(join(dir, 'complete'))) return { dir, writeMs: null };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const t = performance.now();
  await writeBulkJournal(dir, count, appEntry);
  const writeMs = performance.now() - t;
  await writeFile(join(dir, 'complete'), '');
  return { dir, writeMs };
}

interface Measured {
  ms: number;
  wallMs: number;
  peakMiB: number;
  rssMiB?: number;
  items?: number;
  mib?: number;
}

function measure(mode: 'limit' | 'app' | 'export', dir: string, heapCapMiB?: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const cap = heapCapMiB ? [`--max-old-space-size=${heapCapMiB}`] : [];
    const p = spawn(process.execPath, [...cap, '--import', 'tsx', child, mode, dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.on('error', reject);
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${mode} on ${dir} exited ${code}: ${err}`));
      resolve({ ...(JSON.parse(out) as Omit<Measured, 'wallMs'>), wallMs: performance.now() - t });
    });
  });
}

const r = (n: number, d = 1) => Number(n.toFixed(d));

export async function benchHistoryScale(options: { entries?: number; small?: number } = {}): Promise<Figure[]> {
  const big = options.entries ?? 1_000_000;
  const small = options.small ?? 10_000;
  const large = await journal(big);
  const base = await journal(small);
  const results: Figure[] = [];
  if (large.writeMs !== null)
    results.push({
      name: `write the ${big}-entry journal (cached after)`,
      value: r(large.writeMs / 1000),
      unit: 's',
      goal: null,
    });

  // Side by side: small, large, small, large; the better of two each.
  const best = async (mode: 'limit' | 'app' | 'export', dir: string) => {
    const a = await measure(mode, dir);
    const b = await measure(mode, dir);
    return a.ms <= b.ms ? a : b;
  };
  const limitSmall = await best('limit', base.dir);
  const limitLarge = await best('limit', large.dir);
  results.push(
    {
      name: `history --limit 10 at ${big} entries (the command, in-process)`,
      value: r(limitLarge.ms),
      unit: 'ms',
      goal: 200,
    },
    { name: `history --limit 10 at ${small} entries`, value: r(limitSmall.ms), unit: 'ms', goal: null },
    {
      name: `history --limit 10: ${big} / ${small} entries`,
      value: r(limitLarge.ms / limitSmall.ms, 2),
      unit: '×',
      goal: null,
    },
    {
      name: `history --limit 10 at ${big}: whole process (incl. Node + tsx start)`,
      value: r(limitLarge.wallMs),
      unit: 'ms',
      goal: null,
    },
    { name: `history --limit 10 at ${big}: peak RSS`, value: limitLarge.peakMiB, unit: 'MiB', goal: null },
  );

  const appSmall = await best('app', base.dir);
  const appLarge = await best('app', large.dir);
  results.push(
    { name: `app start at ${big} entries (history open + first page)`, value: r(appLarge.ms), unit: 'ms', goal: 1000 },
    { name: `app start at ${big} entries: RSS after the first page`, value: appLarge.rssMiB!, unit: 'MiB', goal: 300 },
    { name: `app start at ${big} entries: peak RSS`, value: appLarge.peakMiB, unit: 'MiB', goal: 300 },
    {
      name: `app start: ${big} / ${small} entries (time)`,
      value: r(appLarge.ms / appSmall.ms, 2),
      unit: '×',
      goal: null,
    },
  );

  const exportSmall = await measure('export', base.dir);
  const exportLarge = await measure('export', large.dir);
  // Peak RSS follows how lazily V8 collects; the proof of constant memory is that the whole export
  // runs in a heap far smaller than the journal (a whole-list export needed over 1 GB).
  const capped = await measure('export', large.dir, HEAP_CAP_MIB);
  results.push(
    {
      name: `export all ${exportLarge.items} items (${exportLarge.mib} MiB JSON Lines), streamed`,
      value: r(exportLarge.ms / 1000, 2),
      unit: 's',
      goal: null,
    },
    { name: `export at ${big} entries: peak RSS`, value: exportLarge.peakMiB, unit: 'MiB', goal: null },
    { name: `export at ${small} entries: peak RSS`, value: exportSmall.peakMiB, unit: 'MiB', goal: null },
    {
      name: `export peak RSS: ${big} / ${small} entries`,
      value: r(exportLarge.peakMiB / exportSmall.peakMiB, 2),
      unit: '×',
      goal: null,
    },
    {
      name: `export at ${big} entries, heap capped at ${HEAP_CAP_MIB} MiB: peak RSS (it completes)`,
      value: capped.peakMiB,
      unit: 'MiB',
      goal: null,
    },
    {
      name: `export at ${big} entries, heap capped at ${HEAP_CAP_MIB} MiB: time`,
      value: r(capped.ms / 1000, 2),
      unit: 's',
      goal: null,
    },
  );
  return results;
}
