// The name a history export is offered under.

/** countersign-history-YYYY-MM-DD.jsonl (or .csv), dated today (UTC). */
export function exportFilename(format: 'jsonl' | 'csv', now = new Date()): string {
  return `countersign-history-${now.toISOString().slice(0, 10)}.${format}`;
}
