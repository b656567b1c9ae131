// Journal file names and the few low-level file operations the journal needs.

import { open, readdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** journal-000001.jsonl, journal-000002.jsonl, … (at least 6 digits; more once past 999999). */
const JOURNAL_RE = /^journal-(\d{6,})\.jsonl$/;
/** Sidecar for bytes set aside from a journal file: journal-000001.jsonl.torn */
export const TORN_SUFFIX = '.torn';

export function journalFileName(index: number): string {
  return `journal-${String(index).padStart(6, '0')}.jsonl`;
}

export function tornSidecarName(journalFile: string): string {
  return `${journalFile}${TORN_SUFFIX}`;
}

export interface JournalFile {
  index: number;
  name: string;
}

/** Journal files in `dir`, in chain order. A missing folder has none. */
export async function listJournalFiles(dir: string): Promise<JournalFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: JournalFile[] = [];
  for (const name of names) {
    const m = JOURNAL_RE.exec(name);
    if (m) files.push({ index: Number(m[1]), name });
  }
  return files.sort((a, b) => a.index - b.index);
}

/** Write all of `data` at the end of an 'a'-mode handle, looping over short writes. */
export async function writeFully(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) throw new Error('write made no progress');
    offset += bytesWritten;
  }
}

/**
 * fsync a folder so that a file just created (or removed) in it survives a crash.
 * Windows cannot open folders for this and NTFS does not need it; some file systems
 * refuse it (EINVAL): those cases are skipped, anything else is an error.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
  } finally {
    await handle?.close();
  }
}

/** fsync the parent of `dir` (after creating `dir`). */
export async function fsyncParent(dir: string): Promise<void> {
  const parent = dirname(dir);
  if (parent !== dir) await fsyncDir(parent);
}
