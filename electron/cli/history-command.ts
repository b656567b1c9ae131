// `countersign history`: read the history journal, filter it, check its chain.
//
//   countersign history [--json] [--server NAME] [--action ACTION] [--since DATE] [--until DATE]
//                       [--mode form|url] [--decided-by WHO] [--search TEXT] [--limit N]
//                       [--verify] [--dir DIR]
//   countersign history verify [--json] [--expect-head SEQ:HASH] [--dir DIR]
//   countersign history export [--format jsonl|csv] [--output FILE] [filters] [--dir DIR]
//
// `--limit N` and `export` read from the journal's end (tail-reader.ts), so their cost follows
// what they print, not the size of the journal; exports stream in constant memory.
// Read-only and lock-free, so it works while the app is running; it never repairs
// anything (the app sets torn tails aside when it opens the journal).

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Action } from '../../shared/elicitation/types';
import { DECIDED_BY } from '../../shared/history/journal-types';
import {
  buildItems,
  filterItems,
  listJournalFiles,
  readJournal,
  verifyJournal,
  type DecidedBy,
  type HistoryFilter,
  type HistoryItem,
  type VerifyReport,
} from '../core/history/index';
import { itemsFromEnd, newestItems } from '../core/history/from-end';
import { streamExport } from '../core/service/history-export';
import { openPrivateFile } from '../core/storage/private-files';
import { historyDir } from './paths';
import { LINE_MAX, terminalText } from '../../shared/terminal-text';

export interface HistoryCommandIO {
  /** Receives whole lines, each ending in "\n" (wire to process.stdout.write). */
  stdout: (s: string) => void;
  /** Receives whole lines, each ending in "\n" (wire to process.stderr.write). */
  stderr: (s: string) => void;
  /** Like stdout, resolving once the bytes were taken (back-pressure for a streamed export). */
  stdoutAsync?: (s: string) => Promise<void>;
  env: NodeJS.ProcessEnv;
  /** The largest journal the whole listing reads (default FULL_LIST_MAX_BYTES). */
  fullListMaxBytes?: number;
}

/**
 * The whole listing (no --limit) builds every item in memory, oldest first:
 * past this much journal it refuses and names the two ways that stay in
 * bounded memory, instead of growing to gigabytes (issue 9 item 11).
 */
export const FULL_LIST_MAX_BYTES = 64 * 1024 * 1024;

/** Exit codes: 0 fine, 2 usage error, unreadable journal, or broken chain (verify / --verify). */
export const EXIT_OK = 0;
export const EXIT_FAIL = 2;

const ACTIONS = ['accept', 'decline', 'cancel', 'none'] as const;
const MODES = ['form', 'url'] as const;
const DECIDERS: readonly DecidedBy[] = DECIDED_BY;

export const HISTORY_USAGE = `Usage:
  countersign history [options]          list questions, answers and faults, oldest first
  countersign history verify [options]   check the hash chain of the whole journal
  countersign history export [options]   the filtered history as JSON Lines or CSV, newest first,
                                         streamed to stdout or --output FILE

Options:
  --json                 one JSON object per line
  --server NAME          only this server (its questions and faults)
  --action ACTION        accept, decline, cancel or none (unanswered)
  --since DATE           from DATE on: 2026-03-01 (local midnight), an ISO time, or 30m, 12h, 7d, 2w ago
  --until DATE           before DATE (same forms)
  --mode MODE            form or url
  --decided-by WHO       human, script, mute-rule, timeout, call-cancelled or policy
  --search TEXT          case-insensitive text in message, call, URL, answer, fault or note
  --limit N              only the last N lines (read from the end of the journal;
                         without it the whole listing reads at most 64 MiB of journal)
  --format FORMAT        (export) jsonl (default: every item, lossless) or csv (one row per question)
  --output FILE          (export) write to FILE (created 0600) instead of stdout
  --verify               check the chain first; exit 2 if it is broken
  --expect-head SEQ:HASH (verify) the chain must still hold this entry, as printed by an earlier verify
  --lenient              (verify) check hashes of the canonical form only: a line re-encoded with the same
                         JSON value (keys reordered, spaces, CRLF, escapes) passes; by default any changed byte fails
  --dir DIR              journal folder (default: $COUNTERSIGN_DATA_DIR/history, else the app's data folder)
  -h, --help             this help
`;

class UsageError extends Error {}

export async function runHistoryCommand(argv: string[], io: HistoryCommandIO): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (err) {
    io.stderr(`countersign history: ${(err as Error).message}\n`);
    io.stderr(`Run 'countersign history --help' for usage.\n`);
    return EXIT_FAIL;
  }
  if (args.help) {
    io.stdout(HISTORY_USAGE);
    return EXIT_OK;
  }
  const dir = args.dir ?? historyDir(io.env);
  // A folder that is not there is an error for verify (nothing was checked) and for an explicit --dir
  // (a typo must not read as "no history"); the default folder simply has no history yet.
  if ((args.command === 'verify' || args.verify || args.dir !== undefined) && !(await isFolder(dir))) {
    io.stderr(
      `countersign history: no history folder at ${dir}${args.dir === undefined ? ' (nothing recorded yet)' : ''}\n`,
    );
    return EXIT_FAIL;
  }
  try {
    if (args.command === 'verify') {
      const report = await verifyJournal(dir, { expectHead: args.expectHead, strict: !args.lenient });
      printVerify(report, dir, args.json, io);
      return report.ok ? EXIT_OK : EXIT_FAIL;
    }
    if (args.command === 'export') return await runExport(dir, args, io);
    let status = EXIT_OK;
    if (args.verify) {
      const report = await verifyJournal(dir, { expectHead: args.expectHead, strict: !args.lenient });
      printVerify(report, dir, args.json, io);
      if (!report.ok) status = EXIT_FAIL;
    }
    if (args.limit !== undefined) {
      // From the end: the newest N items, printed oldest first like the full list.
      if ((await listJournalFiles(dir)).length === 0) {
        if (!args.json) io.stderr(`No history yet (looked in ${dir}).\n`);
        return status;
      }
      let unreadable = 0;
      const items = (
        await newestItems(dir, args.filter, args.limit, { onUnreadable: (n) => (unreadable = n) })
      ).reverse();
      if (unreadable > 0) {
        io.stderr(
          `warning: ${unreadable} line(s) of the journal could not be read; run 'countersign history verify'.\n`,
        );
      }
      writeLines(args.json ? items.map((i) => JSON.stringify(jsonRecord(i))) : humanLines(items), io.stdout);
      return status;
    }
    const files = await listJournalFiles(dir);
    let bytes = 0;
    for (const f of files) bytes += (await stat(join(dir, f.name))).size;
    const cap = io.fullListMaxBytes ?? FULL_LIST_MAX_BYTES;
    if (bytes > cap) {
      io.stderr(
        `countersign history: the history in ${dir} is ${mib(bytes)} MiB, ` +
          `more than the ${mib(cap)} MiB the whole listing reads; ` +
          `use --limit N for the newest entries, or 'countersign history export' to stream all of them\n`,
      );
      return EXIT_FAIL;
    }
    const read = await readJournal(dir);
    if (read.files.length === 0) {
      if (!args.json) io.stderr(`No history yet (looked in ${dir}).\n`);
      return status;
    }
    if (read.problems.length > 0) {
      io.stderr(
        `warning: ${read.problems.length} line(s) of the journal could not be read (first: ` +
          `${safeText(read.problems[0]!.file)} line ${read.problems[0]!.line}); run 'countersign history verify'.\n`,
      );
    }
    const items = filterItems(buildItems(read.entries), args.filter);
    const out = args.json ? items.map((i) => JSON.stringify(jsonRecord(i))) : humanLines(items);
    writeLines(out, io.stdout);
    return status;
  } catch (err) {
    io.stderr(`countersign history: cannot read ${dir}: ${terminalText((err as Error).message, { max: LINE_MAX })}\n`);
    return EXIT_FAIL;
  }
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '');

/** `history export`: stream the filtered items, newest first, to stdout or a private file. */
async function runExport(dir: string, args: ParsedArgs, io: HistoryCommandIO): Promise<number> {
  const format = args.format ?? 'jsonl';
  const batches = itemsFromEnd(dir, args.filter);
  if (args.output === undefined) {
    await streamExport(batches, format, io.stdoutAsync ?? io.stdout);
    return EXIT_OK;
  }
  let handle: Awaited<ReturnType<typeof openPrivateFile>>;
  try {
    handle = await openPrivateFile(args.output, 'wx');
  } catch (err) {
    const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
    io.stderr(
      `countersign history: cannot write ${args.output}: ` +
        `${exists ? 'the file exists (an export never overwrites one)' : (err as Error).message}\n`,
    );
    return EXIT_FAIL;
  }
  try {
    const count = await streamExport(batches, format, async (chunk) => {
      await handle.write(chunk);
    });
    await handle.sync();
    io.stderr(`Exported ${count} ${format === 'csv' ? 'question(s)' : 'item(s)'} to ${args.output}.\n`);
  } finally {
    await handle.close();
  }
  return EXIT_OK;
}

interface ParsedArgs {
  command: 'list' | 'verify' | 'export';
  format?: 'jsonl' | 'csv';
  output?: string;
  help: boolean;
  json: boolean;
  verify: boolean;
  lenient: boolean;
  dir?: string;
  limit?: number;
  expectHead?: { seq: number; hash: string };
  filter: HistoryFilter;
}

function parse(argv: string[], now = Date.now()): ParsedArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      server: { type: 'string' },
      action: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      mode: { type: 'string' },
      'decided-by': { type: 'string' },
      search: { type: 'string' },
      limit: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      verify: { type: 'boolean', default: false },
      lenient: { type: 'boolean', default: false },
      'expect-head': { type: 'string' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (positionals.length > 1 || (positionals.length === 1 && !['verify', 'list', 'export'].includes(positionals[0]!))) {
    throw new UsageError(`unexpected argument '${positionals.at(-1)}'`);
  }
  const filter: HistoryFilter = {};
  if (values.server !== undefined) filter.server = values.server;
  if (values.action !== undefined) filter.action = oneOf<Action | 'none'>('--action', values.action, ACTIONS);
  if (values.mode !== undefined) filter.mode = oneOf('--mode', values.mode, MODES);
  if (values['decided-by'] !== undefined) filter.decidedBy = oneOf('--decided-by', values['decided-by'], DECIDERS);
  if (values.since !== undefined) filter.since = parseDateArg('--since', values.since, now);
  if (values.until !== undefined) filter.until = parseDateArg('--until', values.until, now);
  if (values.search !== undefined) filter.text = values.search;
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!/^\d+$/.test(values.limit) || !Number.isSafeInteger(limit))
      throw new UsageError(`--limit must be a whole number, not '${values.limit}'`);
  }
  let expectHead: ParsedArgs['expectHead'];
  if (values['expect-head'] !== undefined) {
    const m = /^(\d+):([0-9a-f]{64})$/.exec(values['expect-head']);
    if (!m) throw new UsageError('--expect-head must be SEQ:HASH (the hash in full, 64 hex digits)');
    expectHead = { seq: Number(m[1]), hash: m[2]! };
  }
  const command = positionals[0] === 'verify' ? 'verify' : positionals[0] === 'export' ? 'export' : 'list';
  if (command !== 'export' && (values.format !== undefined || values.output !== undefined))
    throw new UsageError(`--format and --output go with 'countersign history export'`);
  if (command === 'export' && values.limit !== undefined)
    throw new UsageError(`'history export' writes everything that matches; --limit goes with the list`);
  return {
    command,
    ...(values.format !== undefined ? { format: oneOf('--format', values.format, ['jsonl', 'csv'] as const) } : {}),
    ...(values.output !== undefined ? { output: values.output } : {}),
    help: values.help,
    json: values.json,
    verify: values.verify,
    lenient: values.lenient,
    dir: values.dir,
    limit,
    expectHead,
    filter,
  };
}

async function isFolder(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not '${value}'`);
  return value as T;
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A --since/--until value: YYYY-MM-DD (local midnight), an ISO date-time, or an age like 30m, 12h, 7d, 2w. */
export function parseDateArg(flag: string, value: string, now: number = Date.now()): Date {
  const rel = /^(\d+)([smhdw])$/.exec(value);
  if (rel) return new Date(now - Number(rel[1]) * UNITS[rel[2]!]!);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  // Only dates that start like one: `new Date('7')` is a valid date too, but not what anyone meant.
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(d.getTime())) {
    throw new UsageError(
      `${flag} must be a date (2026-03-01), a date-time (2026-03-01T14:00) or an age (30m, 12h, 7d, 2w), ` +
        `not '${value}'`,
    );
  }
  return d;
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

function writeLines(lines: string[], write: (s: string) => void): void {
  let chunk = '';
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length > 64 * 1024) {
      write(chunk);
      chunk = '';
    }
  }
  if (chunk) write(chunk);
}

/** Server- and file-supplied text must not move the cursor, recolour the terminal or reorder the line. */
const safeText = (s: string) => terminalText(s);

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ` +
    `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`
  );
}

/** Columns: time, server, call, mode, action, decided by, how the call ended (+ link opened, for URL mode). */
function humanLines(items: HistoryItem[]): string[] {
  const rows: string[][] = [];
  const tails: string[] = [];
  for (const item of items) {
    if (item.kind === 'question') {
      const q = item.question;
      const a = item.answer;
      const call = [q.call.method ?? '(no call)', q.call.name ?? ''].filter(Boolean).join(' ');
      const decided = a ? (a.decidedByDetail ? `${a.decidedBy} (${a.decidedByDetail})` : a.decidedBy) : '-';
      rows.push([
        localTime(item.ts),
        q.server.name,
        call,
        q.mode,
        a ? a.action : 'unanswered',
        decided,
        item.callEnd ? item.callEnd.outcome : '-',
      ]);
      tails.push(q.mode === 'url' && a ? (a.urlOpened ? 'link opened' : 'link not opened') : '');
    } else {
      const e = item.entry;
      switch (e.kind) {
        case 'fault':
          rows.push([localTime(item.ts), e.server ?? '-', `fault ${e.fault}`]);
          tails.push(e.detail);
          break;
        case 'note':
          rows.push([localTime(item.ts), '-', `note ${e.note}`]);
          tails.push(e.detail);
          break;
        case 'task':
          rows.push([
            localTime(item.ts),
            e.server,
            `task ${e.taskId.slice(0, 8)}… ${e.tool} ${e.previous ? `${e.previous} → ` : ''}${e.status}`,
          ]);
          tails.push([e.statusMessage, e.note].filter(Boolean).join(' · '));
          break;
        case 'answer':
          rows.push([localTime(item.ts), e.server, '(question not in history)', '-', e.action, e.decidedBy, '-']);
          tails.push('');
          break;
        case 'call-end':
          rows.push([
            localTime(item.ts),
            e.server,
            `call end ${[e.method, e.name].filter(Boolean).join(' ')}`,
            '-',
            '-',
            '-',
            e.outcome,
          ]);
          tails.push('');
          break;
        case 'app':
          rows.push([localTime(item.ts), e.server, `app ${e.event} ${e.tool} ${e.resourceUri}`]);
          tails.push(e.detail ?? '');
          break;
      }
    }
  }
  // Align the question columns; faults and notes share the first two.
  const widths: number[] = [];
  for (const r of rows) {
    if (r.length < 7) continue;
    r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, safeText(cell).length)));
  }
  return rows.map((r, i) => {
    const cells = r.map((cell, c) =>
      c < r.length - 1 || tails[i] ? safeText(cell).padEnd(widths[c] ?? 0) : safeText(cell),
    );
    const line = cells.join('  ');
    return tails[i] ? `${line}  ${safeText(tails[i])}` : line;
  });
}

/** A flat JSON object per item (easy to use with jq); `type` says what it is. */
function jsonRecord(item: HistoryItem): Record<string, unknown> {
  if (item.kind !== 'question') {
    const { v: _v, prev: _p, hash, ...rest } = item.entry;
    return { type: item.entry.kind, ...rest, hash };
  }
  const q = item.question;
  const a = item.answer;
  const c = item.callEnd;
  return {
    type: 'question',
    seq: q.seq,
    questionId: q.questionId,
    callId: q.callId,
    askedAt: q.ts,
    server: q.server.name,
    era: q.server.era,
    protocolVersion: q.server.protocolVersion,
    method: q.call.method,
    name: q.call.name,
    argumentsSummary: q.call.argumentsSummary,
    round: q.round,
    key: q.key,
    mode: q.mode,
    message: q.message,
    requestedSchema: q.requestedSchema,
    url: q.url,
    requestState: q.requestState,
    answeredAt: a?.ts ?? null,
    action: a?.action ?? null,
    decidedBy: a?.decidedBy ?? null,
    decidedByDetail: a?.decidedByDetail,
    content: a?.content,
    redacted: a?.redacted,
    urlOpened: a?.urlOpened,
    callOutcome: c?.outcome ?? null,
    callIsError: c?.isError,
    callEndedAt: c?.ts,
  };
}

function printVerify(report: VerifyReport, dir: string, json: boolean, io: HistoryCommandIO): void {
  if (json) {
    io.stdout(`${JSON.stringify({ type: 'verify', dir, ...report })}\n`);
    return;
  }
  for (const w of report.warnings) io.stderr(`warning: ${terminalText(w, { max: LINE_MAX })}\n`);
  if (report.ok) {
    if (report.files.length === 0) {
      io.stdout(`History chain: no entries yet (${dir}).\n`);
      return;
    }
    const files = report.files.length === 1 ? report.files[0] : `${report.files[0]} … ${report.files.at(-1)}`;
    io.stdout(`History chain intact: ${report.entries} entries in ${report.files.length} file(s) (${files}).\n`);
    if (report.head) io.stdout(`Head: ${report.head.seq}:${report.head.hash}\n`);
    return;
  }
  const b = report.firstBreak!;
  const where = safeText(b.line > 0 ? `${b.file} line ${b.line}` : b.file);
  io.stdout(
    `History chain BROKEN at ${where}${b.seq !== undefined ? ` (seq ${b.seq})` : ''}: ` +
      `${safeText(b.reason)}: ${safeText(b.detail)}\n`,
  );
  io.stdout(`${report.entries} entries before it check out.\n`);
}
