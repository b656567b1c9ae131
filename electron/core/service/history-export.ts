// Export of a filtered history: JSON Lines (lossless) and CSV (one row per
// question, for spreadsheets).
import type { HistoryItem } from '../history';

/** One JSON object per line, oldest first. */
export function toJsonLines(items: readonly HistoryItem[]): string {
  return items.map((i) => JSON.stringify(i)).join('\n') + (items.length > 0 ? '\n' : '');
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
  for (const item of items) {
    if (item.kind !== 'question') continue;
    const q = item.question;
    const a = item.answer;
    const content = a?.content ?? (a?.redacted ? { redacted: a.redacted.fields } : undefined);
    rows.push(
      [
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
        .join(','),
    );
  }
  return `${rows.join('\n')}\n`;
}
