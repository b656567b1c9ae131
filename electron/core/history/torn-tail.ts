// Crash recovery at the end of the journal.
//
// Appends are serialised and each is fsynced before it is acknowledged, so a
// crash can only leave damage after the last acknowledged entry: an
// unterminated last line (the usual case), or, after a power loss on some file
// systems, trailing lines of garbage or zeros. That region is the "torn tail".
// It is never dropped: its bytes are appended to a sidecar file
// (journal-NNNNNN.jsonl.torn, one JSON record per set-aside region, bytes in
// base64) and fsynced, then the journal file is truncated to its last whole
// entry, then a `note` entry saying what was set aside is appended to the chain.
//
// Each step is safe to repeat after a crash in the middle of recovery:
//  - crash before the truncation: the same region is found again; the sidecar
//    already ends with its record (same file, offset, hash), so it is not copied twice;
//  - crash after the truncation but before the note: the sidecar record names the
//    seq the note was to get (`noteSeq`); if the journal ends just before it, the
//    note is written then.

import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { checkHeader, sha256Hex } from './chain';
import { fsyncDir, tornSidecarName, writeFully, type JournalFile } from './files';
import type { JournalEntry, TornTailNote } from './types';
import { openPrivateFile } from '../storage/private-files';

const NEWLINE = 0x0a;

export interface TailScan {
  file: string;
  size: number;
  /** Bytes [0, goodSize) end with a whole, parseable entry line (or are empty). */
  goodSize: number;
  /** The last parseable entry of the file, if it has one. */
  last?: JournalEntry;
}

/** Find the last whole entry of a journal file, reading backwards from its end. */
export async function scanTail(dir: string, file: string): Promise<TailScan> {
  const handle = await open(join(dir, file), 'r');
  try {
    const { size } = await handle.stat();
    let window = Math.min(size, 64 * 1024);
    for (;;) {
      const result = await scanWindow(handle, file, size, window);
      if (result) return result;
      window = Math.min(size, window * 4);
    }
  } finally {
    await handle.close();
  }
}

/** Scan the last `window` bytes; null when a line starts before the window. */
async function scanWindow(handle: FileHandle, file: string, size: number, window: number): Promise<TailScan | null> {
  const base = size - window;
  const buf = Buffer.alloc(window);
  let filled = 0;
  while (filled < window) {
    const { bytesRead } = await handle.read(buf, filled, window - filled, base + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  const view = buf.subarray(0, filled);
  // End of the last terminated line (exclusive, relative to base).
  let goodEnd = view.lastIndexOf(NEWLINE) + 1;
  if (goodEnd === 0) return base === 0 ? { file, size, goodSize: 0 } : null;
  for (;;) {
    if (goodEnd === 0) return base === 0 ? { file, size, goodSize: 0 } : null;
    const before = goodEnd >= 2 ? view.lastIndexOf(NEWLINE, goodEnd - 2) : -1;
    if (before === -1 && base > 0) return null;
    const lineStart = before + 1;
    const last = parseEntryLine(view.toString('utf8', lineStart, goodEnd - 1));
    if (last) return { file, size, goodSize: base + goodEnd, last };
    goodEnd = lineStart;
  }
}

function parseEntryLine(text: string): JournalEntry | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return checkHeader(value) === null ? (value as JournalEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** One record of a .torn sidecar. */
export interface TornRecord {
  v: 1;
  file: string;
  offset: number;
  length: number;
  sha256: string;
  /** The seq of the note entry that records this set-aside. */
  noteSeq: number;
  at: string;
  base64: string;
}

/**
 * Move the torn region [scan.goodSize, end) of `scan.file` to its sidecar, truncate
 * the journal file, and return the note to append as entry `noteSeq`.
 */
export async function setAsideTornTail(dir: string, scan: TailScan, noteSeq: number): Promise<TornTailNote> {
  const path = join(dir, scan.file);
  const data = await readRange(path, scan.goodSize);
  const record: TornRecord = {
    v: 1,
    file: scan.file,
    offset: scan.goodSize,
    length: data.length,
    sha256: sha256Hex(data),
    noteSeq,
    at: new Date().toISOString(),
    base64: data.toString('base64'),
  };
  const sidecar = tornSidecarName(scan.file);
  const sidecarPath = join(dir, sidecar);
  const existing = await readSidecar(sidecarPath);
  const lastRecord = existing.records.at(-1);
  const already =
    lastRecord !== undefined &&
    lastRecord.file === record.file &&
    lastRecord.offset === record.offset &&
    lastRecord.sha256 === record.sha256;
  if (already) {
    record.noteSeq = lastRecord.noteSeq;
  } else {
    const handle = await openPrivateFile(sidecarPath, 'a');
    try {
      // A sidecar torn by a crash during a previous recovery must not swallow this record.
      const lead = existing.size > 0 && !existing.endsWithNewline ? '\n' : '';
      await writeFully(handle, Buffer.from(`${lead}${JSON.stringify(record)}\n`));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (existing.size === 0) await fsyncDir(dir);
  }
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(scan.goodSize);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return tornTailNote(record, sidecar);
}

/**
 * After a crash between truncation and note: the note a sidecar still owes, if the
 * journal ends at `lastSeq` and one of the sidecars of `files` expects note `lastSeq + 1`.
 */
export async function owedTornTailNote(
  dir: string,
  files: JournalFile[],
  lastSeq: number,
): Promise<TornTailNote | null> {
  for (const f of files) {
    const sidecar = tornSidecarName(f.name);
    const { records } = await readSidecar(join(dir, sidecar));
    const last = records.at(-1);
    if (last && last.noteSeq === lastSeq + 1) return tornTailNote(last, sidecar);
  }
  return null;
}

function tornTailNote(record: TornRecord, sidecar: string): TornTailNote {
  return {
    kind: 'note',
    note: 'torn-tail',
    detail:
      `An incomplete write of ${record.length} bytes at the end of ${record.file}, left by a crash, ` +
      `was moved to ${sidecar}.`,
    file: record.file,
    offset: record.offset,
    length: record.length,
    sha256: record.sha256,
    sidecar,
  };
}

async function readRange(path: string, from: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.max(0, size - from));
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, from + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buf.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Records of a sidecar (unreadable lines skipped); a missing sidecar has none. */
export async function readSidecar(
  path: string,
): Promise<{ records: TornRecord[]; size: number; endsWithNewline: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], size: 0, endsWithNewline: true };
    throw err;
  }
  const records: TornRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as TornRecord;
      if (r && typeof r.sha256 === 'string' && typeof r.noteSeq === 'number') records.push(r);
    } catch {
      /* a torn sidecar line: its region is copied again */
    }
  }
  return { records, size: Buffer.byteLength(text), endsWithNewline: text.endsWith('\n') };
}
