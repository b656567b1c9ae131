// Checking the whole chain: every line's hash, seq continuity and prev links,
// across all journal files in order. Read-only; stops at the first break and names it.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkLine, GENESIS_HASH, type LineProblem } from './chain';
import { listJournalFiles } from './files';
import { readSidecar } from './torn-tail';
import type { TornTailNote } from './types';
import { vouchedAs } from '../../../shared/vouched-as';

export type BreakReason =
  | LineProblem // 'unparseable' | 'malformed' | 'hash-mismatch' | 'not-canonical'
  | 'seq-gap'
  | 'seq-out-of-order'
  | 'prev-mismatch'
  | 'unterminated'
  | 'head-mismatch';

export interface ChainBreak {
  /** Journal file name. */
  file: string;
  /** 1-based line in that file. */
  line: number;
  /** The entry's seq, when the line could be read. */
  seq?: number;
  reason: BreakReason;
  /** One plain English sentence. */
  detail: string;
}

export interface VerifyOptions {
  /** Also require every line to be byte-for-byte canonical. */
  strict?: boolean;
  /**
   * A head recorded earlier (e.g. printed by a previous verify): the chain must still
   * contain that entry with that hash. The only way to notice entries cut off the end.
   */
  expectHead?: { seq: number; hash: string };
}

export interface VerifyReport {
  ok: boolean;
  /** Entries that checked out (all of them when ok). */
  entries: number;
  files: string[];
  /** Last good entry. */
  head?: { seq: number; hash: string; file: string };
  firstBreak?: ChainBreak;
  /** Not breaks, but worth saying (an unterminated tail the writer will set aside, a missing sidecar). */
  warnings: string[];
}

export async function verifyJournal(dir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const files = await listJournalFiles(dir);
  const report: VerifyReport = { ok: true, entries: 0, files: files.map((f) => f.name), warnings: [] };
  let expectedSeq = 1;
  let prev = GENESIS_HASH;
  const tornNotes: TornTailNote[] = [];
  const expect = options.expectHead;
  let expectSeen = false;

  const fail = (b: ChainBreak): VerifyReport => {
    report.ok = false;
    report.firstBreak = b;
    return report;
  };

  for (let f = 0; f < files.length; f++) {
    const file = files[f]!.name;
    const text = await readFile(join(dir, file), 'utf8');
    let lineNo = 0;
    let pos = 0;
    while (pos < text.length) {
      lineNo++;
      const nl = text.indexOf('\n', pos);
      if (nl === -1) {
        const length = Buffer.byteLength(text.slice(pos));
        if (f === files.length - 1) {
          report.warnings.push(
            `${file} ends with an unterminated line of ${length} bytes (line ${lineNo}): an append in progress, ` +
              'or a torn write the app will set aside when it next opens the journal.',
          );
          break;
        }
        return fail({
          file,
          line: lineNo,
          reason: 'unterminated',
          detail: `line ${lineNo} of ${file} is cut off, yet later files exist.`,
        });
      }
      const line = text.slice(pos, nl);
      pos = nl + 1;
      const checked = checkLine(line, options.strict);
      if (!checked.ok) {
        return fail({
          file,
          line: lineNo,
          seq: checked.entry?.seq,
          reason: checked.problem,
          detail:
            checked.problem === 'hash-mismatch'
              ? `entry ${checked.entry?.seq} was changed after it was written: ${checked.detail}.`
              : `line ${lineNo} of ${file}: ${checked.detail}.`,
        });
      }
      const e = checked.entry;
      if (e.seq > expectedSeq) {
        const later = findLater(text, pos, lineNo, expectedSeq);
        if (later !== null) {
          return fail({
            file,
            line: lineNo,
            seq: e.seq,
            reason: 'seq-out-of-order',
            detail:
              `expected seq ${expectedSeq}, found ${e.seq}; entry ${expectedSeq} comes later (line ${later}): ` +
              'entries were reordered.',
          });
        }
        return fail({
          file,
          line: lineNo,
          seq: e.seq,
          reason: 'seq-gap',
          detail:
            e.seq === expectedSeq + 1
              ? `expected seq ${expectedSeq}, found ${e.seq}: entry ${expectedSeq} is missing (deleted or moved).`
              : `expected seq ${expectedSeq}, found ${e.seq}: ` +
                `entries ${expectedSeq} to ${e.seq - 1} are missing (deleted or moved).`,
        });
      }
      if (e.seq < expectedSeq) {
        return fail({
          file,
          line: lineNo,
          seq: e.seq,
          reason: 'seq-out-of-order',
          detail: `expected seq ${expectedSeq}, found ${e.seq}: entries were reordered or duplicated.`,
        });
      }
      if (e.prev !== prev) {
        return fail({
          file,
          line: lineNo,
          seq: e.seq,
          reason: 'prev-mismatch',
          detail: `entry ${e.seq} does not follow the entry before it: that entry was replaced, re-hashed or moved.`,
        });
      }
      if (expect && e.seq === expect.seq) {
        expectSeen = true;
        if (e.hash !== expect.hash) {
          return fail({
            file,
            line: lineNo,
            seq: e.seq,
            reason: 'head-mismatch',
            detail:
              `entry ${e.seq} has hash ${e.hash.slice(0, 12)}…, ` +
              `not the ${expect.hash.slice(0, 12)}… recorded earlier.`,
          });
        }
      }
      if (e.kind === 'note' && (e as { note?: unknown }).note === 'torn-tail')
        tornNotes.push(vouchedAs<TornTailNote>(e)); // kind and note checked on the line above
      report.entries++;
      report.head = { seq: e.seq, hash: e.hash, file };
      expectedSeq = e.seq + 1;
      prev = e.hash;
    }
  }

  if (expect && !expectSeen) {
    const last = report.head;
    return fail({
      file: last?.file ?? files.at(-1)?.name ?? '(none)',
      line: 0,
      seq: last?.seq,
      reason: 'head-mismatch',
      detail:
        `the journal ends at seq ${last?.seq ?? 0}, but seq ${expect.seq} was recorded earlier: ` +
        'entries were cut off the end.',
    });
  }

  for (const note of tornNotes) {
    const { records } = await readSidecar(join(dir, note.sidecar));
    if (!records.some((r) => r.sha256 === note.sha256 && r.offset === note.offset)) {
      report.warnings.push(
        `the bytes set aside by the torn-tail note for ${note.file} are missing from ${note.sidecar}.`,
      );
    }
  }
  return report;
}

/** Line number (after `fromLine`) of the entry with `seq` further down the same file, if any. */
function findLater(text: string, from: number, fromLine: number, seq: number): number | null {
  let line = fromLine;
  let pos = from;
  while (pos < text.length) {
    line++;
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const slice = text.slice(pos, end);
    if (slice.includes(`"seq":${seq},`) || slice.includes(`"seq":${seq}}`)) {
      try {
        if ((JSON.parse(slice) as { seq?: unknown }).seq === seq) return line;
      } catch {
        /* not this one */
      }
    }
    pos = end + 1;
  }
  return null;
}
