// Reading the journal from its end: lines newest first, across the rotated
// files, a chunk at a time, so the last few entries of a 500 MB journal cost a
// few reads instead of the whole folder. Read-only and lock-free like reader.ts:
// an unterminated tail (an append in flight, or a torn write the writer will set
// aside) is skipped, never repaired.

import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { listJournalFiles, type JournalFile } from './files';
import type { JournalEntry } from './types';

/** Bytes read per step. Lines longer than this are put together from several reads. */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

export interface TailLine {
  /** Journal file name. */
  file: string;
  /** Byte offset of the line's first byte in that file. */
  offset: number;
  /** The line without its "\n". */
  text: string;
}

export interface TailReadOptions {
  chunkBytes?: number;
  /** The files to read (default: listed now). Passing them lets a caller pin what "the end" was. */
  files?: readonly JournalFile[];
  /** Bytes of the last file to consider (default: its size when opened): appends after it are not read. */
  lastFileSize?: number;
}

const NEWLINE = 0x0a;

/**
 * Every terminated line of the journal, newest first, in batches (one per chunk read: a batch per
 * line would cost a promise each). A file's unterminated last bytes are skipped (in the newest file
 * that is an append in flight; in an older one verify reports it).
 */
export async function* linesFromEnd(dir: string, options: TailReadOptions = {}): AsyncGenerator<TailLine[]> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const files = options.files ?? (await listJournalFiles(dir));
  for (let f = files.length - 1; f >= 0; f--) {
    const name = files[f]!.name;
    let handle: FileHandle;
    try {
      handle = await open(join(dir, name), 'r');
    } catch (err) {
      // Only a file removed by hand between listing and reading; the rest still reads.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    try {
      const size = (await handle.stat()).size;
      const end =
        f === files.length - 1 && options.lastFileSize !== undefined ? Math.min(size, options.lastFileSize) : size;
      yield* fileLinesFromEnd(handle, name, end, chunkBytes);
    } finally {
      await handle.close();
    }
  }
}

async function* fileLinesFromEnd(
  handle: FileHandle,
  file: string,
  size: number,
  chunkBytes: number,
): AsyncGenerator<TailLine[]> {
  let pos = size;
  // Bytes from `pos` up to the end of the line we are inside of (its start is not read yet).
  let rest: Buffer = Buffer.alloc(0);
  let first = true;
  while (pos > 0) {
    const n = Math.min(chunkBytes, pos);
    pos -= n;
    const chunk = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const { bytesRead } = await handle.read(chunk, got, n - got, pos + got);
      if (bytesRead <= 0) throw new Error(`${file} became shorter while being read`);
      got += bytesRead;
    }
    const data = rest.length > 0 ? Buffer.concat([chunk, rest]) : chunk;
    // `lineEnd`: where the line being cut out ends (the index of its "\n", or data.length when the
    // bytes after `data` start with one).
    let lineEnd = data.length;
    if (first) {
      // Whatever follows the last "\n" of the file is unterminated: not an entry yet.
      const lastNl = data.lastIndexOf(NEWLINE);
      if (lastNl === -1) {
        rest = data;
        continue;
      }
      first = false;
      lineEnd = lastNl;
    }
    const lines: TailLine[] = [];
    for (let nl = lineEnd > 0 ? data.lastIndexOf(NEWLINE, lineEnd - 1) : -1; nl !== -1;) {
      lines.push({ file, offset: pos + nl + 1, text: data.toString('utf8', nl + 1, lineEnd) });
      lineEnd = nl;
      nl = lineEnd > 0 ? data.lastIndexOf(NEWLINE, lineEnd - 1) : -1;
    }
    // data[0..lineEnd) is the end of a line that starts in an earlier chunk (or at the file's start).
    rest = data.subarray(0, lineEnd);
    if (pos === 0) lines.push({ file, offset: 0, text: rest.toString('utf8') });
    if (lines.length > 0) yield lines;
  }
}

/** A line parsed as an entry (not hash-checked: verify does that), or null for a line that is not one. */
export function parseEntryLine(text: string): JournalEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { seq?: unknown }).seq === 'number' &&
    typeof (value as { ts?: unknown }).ts === 'string'
  )
    return value as JournalEntry;
  return null;
}

/** The newest `count` entries, newest first (lines that are not entries are skipped). */
export async function newestEntries(dir: string, count: number, chunkBytes = 16 * 1024): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  if (count <= 0) return out;
  for await (const lines of linesFromEnd(dir, { chunkBytes })) {
    for (const line of lines) {
      const entry = parseEntryLine(line.text);
      if (entry) out.push(entry);
      if (out.length >= count) return out;
    }
  }
  return out;
}
