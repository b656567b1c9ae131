// History items newest first, straight from the journal's end, in constant
// memory: what `history --limit`, the History view's pages and exports read.
// A filter is applied to finished items, so it sees each question with its answer.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listJournalFiles, type JournalFile } from './files';
import { NewestFirstItems } from './newest-first';
import { itemFilter, type HistoryFilter, type HistoryItem } from './query';
import { linesFromEnd, parseEntryLine, type TailReadOptions } from './tail-reader';

export interface FromEndOptions {
  chunkBytes?: number;
  /** Pin what is read (see journalSnapshot): appends made after it are not seen. */
  snapshot?: JournalSnapshot;
  /** Kept up to date with how many entries have been read so far. */
  progress?: { entries: number };
  /** Called with the number of lines, in what was read so far, that were not journal entries (verify names them). */
  onUnreadable?: (lines: number) => void;
}

/** Which files the journal had and how long the newest was, at one moment. */
export interface JournalSnapshot {
  files: JournalFile[];
  lastFileSize: number;
}

/** The journal's files and the newest one's size now. Two snapshots are equal iff nobody appended in between. */
export async function journalSnapshot(dir: string): Promise<JournalSnapshot> {
  const files = await listJournalFiles(dir);
  const last = files.at(-1);
  let lastFileSize = 0;
  if (last) {
    try {
      lastFileSize = (await stat(join(dir, last.name))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return { files, lastFileSize };
}

export function sameSnapshot(a: JournalSnapshot, b: JournalSnapshot): boolean {
  return (
    a.lastFileSize === b.lastFileSize &&
    a.files.length === b.files.length &&
    a.files.every((f, i) => f.name === b.files[i]!.name)
  );
}

/** Items matching `filter`, newest first, in batches as they are read. */
export async function* itemsFromEnd(
  dir: string,
  filter: HistoryFilter = {},
  options: FromEndOptions = {},
): AsyncGenerator<HistoryItem[]> {
  const keep = itemFilter(filter);
  const builder = new NewestFirstItems();
  const read: TailReadOptions = { chunkBytes: options.chunkBytes };
  if (options.snapshot) {
    read.files = options.snapshot.files;
    read.lastFileSize = options.snapshot.lastFileSize;
  }
  const drain = (): HistoryItem[] => {
    const out: HistoryItem[] = [];
    for (let item = builder.take(); item; item = builder.take()) if (!keep || keep(item)) out.push(item);
    return out;
  };
  let unreadable = 0;
  for await (const lines of linesFromEnd(dir, read)) {
    const before = unreadable;
    for (const line of lines) {
      const entry = parseEntryLine(line.text);
      if (entry) builder.push(entry);
      else unreadable++;
    }
    if (options.progress) options.progress.entries = builder.entriesRead;
    if (unreadable > before) options.onUnreadable?.(unreadable);
    const out = drain();
    if (out.length > 0) yield out;
  }
  builder.end();
  const out = drain();
  if (out.length > 0) yield out;
}

/** The newest `limit` items matching `filter`, newest first. */
export async function newestItems(
  dir: string,
  filter: HistoryFilter,
  limit: number,
  options: FromEndOptions = {},
): Promise<HistoryItem[]> {
  const out: HistoryItem[] = [];
  if (limit <= 0) return out;
  for await (const batch of itemsFromEnd(dir, filter, options)) {
    for (const item of batch) {
      out.push(item);
      if (out.length >= limit) return out;
    }
  }
  return out;
}
