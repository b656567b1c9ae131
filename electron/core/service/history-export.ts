// Export of a filtered history: JSON Lines (lossless) and CSV (one row per
// question, for spreadsheets). Exports are streamed newest first (the order the
// History view and a read from the journal's end give) in constant memory: a
// million entries never become one string.
import type { HistoryItem } from '../history';

export type ExportFormat = 'jsonl' | 'csv';

/** One JSON object per line, in the order given. */
export function toJsonLines(items: readonly HistoryItem[]): string {
  return items.map((i) => JSON.stringify(i)).join('\n') + (items.length > 0 ? '\n' : '');
}

/** Where a streamed export goes: awaited, so a slow reader slows the export instead of filling memory. */
export type ExportSink = (chunk: string) => void | Promise<void>;

/** Bytes gathered before a chunk goes to the sink. */
const EXPORT_CHUNK_CHARS = 64 * 1024;

/**
 * Write `batches` (items newest first, as itemsFromEnd gives them) to `sink` as `format`.
 * Resolves with the number of items written (CSV: question rows).
 */
export async function streamExport(
  batches: AsyncIterable<readonly HistoryItem[]>,
  format: ExportFormat,
  sink: ExportSink,
  chunkChars = EXPORT_CHUNK_CHARS,
): Promise<number> {
  let buffer = format === 'csv' ? `${CSV_COLUMNS.join(',')}\n` : '';
  let count = 0;
  for await (const batch of batches) {
    for (const item of batch) {
      if (format === 'csv') {
        if (item.kind !== 'question') continue;
        buffer += `${csvRow(item)}\n`;
      } else buffer += `${JSON.stringify(item)}\n`;
      count++;
      if (buffer.length >= chunkChars) {
        await sink(buffer);
        buffer = '';
      }
    }
  }
  if (buffer.length > 0) await sink(buffer);
  return count;
}

const CSV_COLUMNS = [
  'seq',
  'asked',
  'answered',
  'server',
  'era',
  'method',
  'name',
  'round',
  'key',
  'mode',
  'message',
  'url',
  'action',
  'decided_by',
  'content',
  'call_outcome',
] as const;

/** Quote a CSV field; neutralise spreadsheet formulas so an export cannot run code when opened. */
export function csvField(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV with a header row; questions only (faults and notes have no columns here). */
export function toCsv(items: readonly HistoryItem[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const item of items) if (item.kind === 'question') rows.push(csvRow(item));
  return `${rows.join('\n')}\n`;
}

function csvRow(item: Extract<HistoryItem, { kind: 'question' }>): string {
  const q = item.question;
  const a = item.answer;
  const content = a?.content ?? (a?.redacted ? { redacted: a.redacted.fields } : undefined);
  return [
    item.seq,
    q.ts,
    a?.ts,
    q.server.name,
    q.server.era,
    q.call.method,
    q.call.name,
    q.round,
    q.key,
    q.mode,
    q.message,
    q.url?.href,
    a?.action,
    a?.decidedBy,
    content,
    item.callEnd?.outcome,
  ]
    .map(csvField)
    .join(',');
}
