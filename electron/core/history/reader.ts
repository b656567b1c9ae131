// Reading the whole journal fast, for the history view and the CLI. Read-only:
// it never repairs anything (only the writer sets torn tails aside) and takes no lock.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listJournalFiles } from './files';
import type { JournalEntry } from './types';

export interface ReadProblem {
  file: string;
  /** 1-based line number. */
  line: number;
  detail: string;
}

export interface ReadResult {
  /** Entries in chain order. Not hash-checked: use verify for that. */
  entries: JournalEntry[];
  /** Journal file names, in order. */
  files: string[];
  /** Lines that could not be read at all (verify names the first precisely). */
  problems: ReadProblem[];
  /** Unterminated bytes at the very end: an append in flight, or a torn tail the writer will set aside. */
  pendingTail?: { file: string; offset: number; length: number };
}

export async function readJournal(dir: string): Promise<ReadResult> {
  const files = await listJournalFiles(dir);
  const result: ReadResult = { entries: [], files: files.map((f) => f.name), problems: [] };
  for (let i = 0; i < files.length; i++) {
    const name = files[i]!.name;
    const text = await readFile(join(dir, name), 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      if (i === files.length - 1) {
        result.pendingTail = {
          file: name,
          offset: Buffer.byteLength(text.slice(0, end)),
          length: Buffer.byteLength(text.slice(end)),
        };
      } else {
        result.problems.push({
          file: name,
          line: countLines(text, end) + 1,
          detail: 'unterminated line before the last file',
        });
      }
    }
    if (end === 0) continue;
    parseLines(text, end, name, result);
  }
  return result;
}

/** Parse the `end` first characters (whole lines) of a file into result.entries. */
function parseLines(text: string, end: number, file: string, result: ReadResult): void {
  const body = text.slice(0, end - 1);
  // Fast path: one JSON.parse for the whole file. Raw newlines cannot occur inside
  // JSON strings, so joining lines with commas gives a valid array exactly when every
  // line is valid JSON; otherwise fall back to line by line.
  try {
    const all = JSON.parse(`[${body.replaceAll('\n', ',')}]`) as unknown[];
    if (all.every(isEntryLike)) {
      for (const e of all) result.entries.push(e as JournalEntry);
      return;
    }
  } catch {
    /* fall through */
  }
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    try {
      const value: unknown = JSON.parse(lines[i]!);
      if (isEntryLike(value)) result.entries.push(value as JournalEntry);
      else result.problems.push({ file, line: i + 1, detail: 'not a journal entry' });
    } catch (err) {
      result.problems.push({ file, line: i + 1, detail: `not JSON (${(err as Error).message})` });
    }
  }
}

function isEntryLike(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { seq?: unknown }).seq === 'number' &&
    typeof (value as { ts?: unknown }).ts === 'string'
  );
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
