// Saves text the host produced (a history export) as a file: a Blob behind a
// temporary object URL and an <a download>. In Electron the session allows
// exactly these blob: downloads (electron/main/hardening.ts) and asks where
// to save; in a browser it lands in the downloads folder.

/** Starts a download of `data` named `filename`. */
export function downloadText(data: string, filename: string, type: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  try {
    downloadLink(url, filename, doc);
  } finally {
    // Revoked after the click has been handled, so the download has its bytes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/**
 * Starts a download the host streams from a one-use link of its own origin (the web shell), so a
 * million-entry export never has to fit in this page's memory. Also the click behind downloadText.
 */
export function downloadLink(url: string, filename: string, doc: Document = document): void {
  const a = doc.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  doc.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
  }
}

/** The MIME type of an export format. */
export function exportMime(format: 'jsonl' | 'csv'): string {
  return format === 'csv' ? 'text/csv;charset=utf-8' : 'application/jsonl;charset=utf-8';
}
