// History journal benchmark (issue goals for 100k entries: open ≤ 1 s,
// filter ≤ 50 ms, append with fsync ≤ 5 ms p99). fsync times depend on the disk
// and on whatever else is using it; run on an idle machine. The bench runner calls
// benchHistory(); run alone with:
//   npx tsx -e "import('./bench/history.bench.ts').then(m => m.benchHistory()).then(r => console.table(r))"

import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  buildItems,
  filterItems,
  HistoryJournal,
  readJournal,
  verifyJournal,
  type EntryInput,
} from '../electron/core/history/index';
import type { Figure } from './sections';

const SERVERS = ['github', 'linear', 'filesystem', 'slack', 'postgres'];
const TOOLS = ['create_issue', 'deploy', 'delete_file', 'send_message', 'run_query'];

/** A realistic mix: per call a question, its answer and the call end; some faults. */
export function sampleEntry(i: number): EntryInput {
  const call = Math.floor(i / 3);
  const server = SERVERS[call % SERVERS.length]!;
  const tool = TOOLS[call % TOOLS.length]!;
  const callId = `call-${call}`;
  const questionId = `q-${call}`;
  if (i % 50 === 49) {
    return {
      kind: 'fault',
      fault: 'invalid-schema',
      server,
      callId,
      detail: `properties.amount.minimum must be a number (round ${1 + (i % 3)})`,
    };
  }
  switch (i % 3) {
    case 0:
      return call % 4 === 3
        ? {
            kind: 'question',
            questionId,
            callId,
            server: { name: server, era: 'modern', protocolVersion: '2026-06-18' },
            call: { method: 'tools/call', name: tool, argumentsSummary: `repo="acme/widgets" title="Fix #${call}"` },
            round: 1,
            key: 'auth',
            mode: 'url',
            message: `Sign in to ${server} to let the tool continue.`,
            url: {
              href: `https://auth.${server}.example.com/oauth/authorize?state=${call}`,
              scheme: 'https',
              host: `auth.${server}.example.com`,
              hostUnicode: `auth.${server}.example.com`,
              registrableDomain: 'example.com',
              warnings: [],
              blocked: false,
            },
            requestState: 'x'.repeat(64),
          }
        : {
            kind: 'question',
            questionId,
            callId,
            server: { name: server, era: call % 7 === 0 ? 'legacy' : 'modern', protocolVersion: '2026-06-18' },
            call: { method: 'tools/call', name: tool, argumentsSummary: `path="/srv/data/${call}.csv" dryRun=false` },
            round: 1 + (call % 2),
            key: 'confirm',
            mode: 'form',
            message: `Confirm ${tool} on ${server}: this changes ${call % 100} records. Do you want to continue?`,
            requestedSchema: {
              type: 'object',
              properties: {
                confirm: { type: 'boolean', title: 'Continue?' },
                reason: { type: 'string', title: 'Reason', maxLength: 200 },
                priority: { type: 'string', enum: ['low', 'normal', 'high'] },
              },
              required: ['confirm'],
            },
          };
    case 1: {
      const action = (['accept', 'accept', 'decline', 'cancel'] as const)[call % 4]!;
      return {
        kind: 'answer',
        questionId,
        callId,
        server,
        action,
        decidedBy: call % 9 === 0 ? 'mute-rule' : call % 13 === 0 ? 'timeout' : 'human',
        content:
          action === 'accept' && call % 4 !== 3
            ? { confirm: true, reason: `ticket ${call}`, priority: 'normal' }
            : undefined,
        urlOpened: call % 4 === 3 ? action === 'accept' : undefined,
      };
    }
    default:
      return {
        kind: 'call-end',
        callId,
        server,
        method: 'tools/call',
        name: tool,
        outcome: call % 17 === 0 ? 'error' : 'complete',
        isError: call % 17 === 0,
        rounds: 1,
      };
  }
}

/**
 * sampleEntry as JournalHistory writes it (entry i has seq i + 1): answers name their question's seq and
 * call ends count their questions, so a reader from the journal's end stops looking for them where
 * JournalHistory's own entries let it. sampleEntry alone is a journal from before those fields, where an
 * answer whose question is missing (a fault took its place, every 150 entries) is looked for 100,000 entries back.
 */
export function appEntry(i: number): EntryInput {
  const e = sampleEntry(i);
  // A call's question is entry 3·call (seq 3·call + 1); every 50th entry is a fault instead.
  const questionAt = Math.floor(i / 3) * 3;
  if (e.kind === 'answer') return { ...e, questionSeq: questionAt + 1 };
  if (e.kind === 'call-end') return { ...e, questions: questionAt % 50 === 49 ? 0 : 1 };
  return e;
}

/** Appends appEntry(0..total-1) to the journal in `dir` (group commit: concurrent appends share fsyncs). */
export async function fillAppJournal(dir: string, total: number): Promise<void> {
  const journal = await HistoryJournal.open(dir);
  try {
    for (let i = 0; i < total; i += 5000) {
      const chunk: Promise<unknown>[] = [];
      for (let j = i; j < Math.min(total, i + 5000); j++) chunk.push(journal.append(appEntry(j)));
      await Promise.all(chunk);
    }
  } finally {
    await journal.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

export async function benchHistory(options: { entries?: number; appends?: number } = {}): Promise<Figure[]> {
  const total = options.entries ?? 100_000;
  const appends = options.appends ?? 1000;
  const dir = await mkdtemp(join(tmpdir(), 'countersign-history-bench-'));
  try {
    // Fill: concurrent appends share fsyncs (group commit), so this takes seconds, not minutes.
    {
      const journal = await HistoryJournal.open(dir);
      for (let i = 0; i < total; i += 5000) {
        const chunk: Promise<unknown>[] = [];
        for (let j = i; j < Math.min(total, i + 5000); j++) chunk.push(journal.append(sampleEntry(j)));
        await Promise.all(chunk);
      }
      await journal.close();
    }

    // Open: what the app does at start (writer open) plus loading every entry for the view.
    // Read-only load first (what the CLI does), and let it go before the next load.
    let t = performance.now();
    const readOnlyCount = (await readJournal(dir)).entries.length;
    const readOnlyMs = performance.now() - t;
    if (readOnlyCount !== total) throw new Error(`read ${readOnlyCount} entries, wrote ${total}`);

    t = performance.now();
    const journal = await HistoryJournal.open(dir);
    const writerOpenMs = performance.now() - t;
    const read = await journal.readAll();
    const items = buildItems(read.entries);
    const openMs = performance.now() - t;

    // Filter: the CLI's typical query, then a free-text search (first run builds the search text).
    t = performance.now();
    const filtered = filterItems(items, {
      server: 'github',
      action: 'accept',
      since: new Date(Date.now() - 86_400_000),
    });
    const filterMs = performance.now() - t;
    t = performance.now();
    const searched = filterItems(items, { text: 'ticket 4240' });
    const textMs = performance.now() - t;
    if (filtered.length === 0 || searched.length === 0) throw new Error('filters matched nothing');

    // Append with fsync, one at a time, as answers arrive; interleaved with a bare write +
    // fdatasync of the same entry as a JSON line (the journal's line adds its seq, time and hashes)
    // to a file in the same folder, so that the disk's own price, which decides the absolute
    // figure, is measured beside the journal's.
    const times: number[] = [];
    const bareTimes: number[] = [];
    const bare = await open(join(dir, 'bare-fsync.bench'), 'a', 0o600);
    try {
      for (let i = 0; i < appends; i++) {
        const entry = sampleEntry(total + i);
        const line = `${JSON.stringify(entry)}\n`;
        let s = performance.now();
        await journal.append(entry);
        times.push(performance.now() - s);
        s = performance.now();
        await bare.write(line);
        await bare.datasync();
        bareTimes.push(performance.now() - s);
      }
    } finally {
      await bare.close();
    }
    times.sort((a, b) => a - b);
    bareTimes.sort((a, b) => a - b);
    await journal.close();

    t = performance.now();
    const report = await verifyJournal(dir);
    const verifyMs = performance.now() - t;
    if (!report.ok) throw new Error(`chain broken: ${report.firstBreak?.detail}`);

    return [
      { name: `history: open + load ${total} entries`, value: round(openMs, 1), unit: 'ms', goal: 1000 },
      { name: 'history: writer open (tail scan + lock)', value: round(writerOpenMs), unit: 'ms', goal: null },
      { name: `history: read-only load ${total} entries (CLI)`, value: round(readOnlyMs, 1), unit: 'ms', goal: null },
      {
        name: `history: filter server+action+since over ${items.length} items`,
        value: round(filterMs),
        unit: 'ms',
        goal: 50,
      },
      { name: `history: free-text filter over ${items.length} items`, value: round(textMs), unit: 'ms', goal: 50 },
      { name: 'history: append + fsync p50', value: round(percentile(times, 50), 3), unit: 'ms', goal: null },
      { name: 'history: append + fsync p99', value: round(percentile(times, 99), 3), unit: 'ms', goal: 5 },
      {
        name: 'the disk alone: bare write + fdatasync of the entry as a JSON line, p50',
        value: round(percentile(bareTimes, 50), 3),
        unit: 'ms',
        goal: null,
      },
      {
        name: 'the disk alone: bare write + fdatasync of the entry as a JSON line, p99',
        value: round(percentile(bareTimes, 99), 3),
        unit: 'ms',
        goal: null,
      },
      {
        name: 'history: append + fsync / bare write + fdatasync (p50)',
        value: round(percentile(times, 50) / percentile(bareTimes, 50), 2),
        unit: '×',
        goal: null,
      },
      {
        name: 'history: append + fsync / bare write + fdatasync (p99)',
        value: round(percentile(times, 99) / percentile(bareTimes, 99), 2),
        unit: '×',
        goal: null,
      },
      {
        name: `history: verify chain of ${total + appends} entries`,
        value: round(verifyMs, 1),
        unit: 'ms',
        goal: null,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
