// The line format and the hash chain.
//
// Each entry is one line of UTF-8 JSON ending in "\n":
//
//   <canonical JSON of the entry without `hash`, minus its closing brace>,"hash":"<64 hex>"}
//
// so `hash` = SHA-256 (hex) of the canonical JSON (see canonical-json.ts) of
// the entry without `hash`, and `hash` is always the last key on the line.
// A verifier may check it either way: strip the fixed 75-character suffix,
// put back "}" and hash those bytes (fast), or parse the line, delete `hash`,
// re-canonicalise and hash (what an independent tool would do). For lines this
// journal writes both give the same answer. `prev` is the previous entry's
// hash, so editing, deleting, inserting or reordering any entry breaks the chain.

import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { GENESIS_HASH, JOURNAL_FORMAT_VERSION, type EntryBody, type JournalEntry } from './types';

export { GENESIS_HASH };

const HASH_RE = /^[0-9a-f]{64}$/;
const SUFFIX_HEAD = ',"hash":"';
/** `,"hash":"` + 64 hex + `"}` */
const SUFFIX_LENGTH = SUFFIX_HEAD.length + 64 + 2;

/** Keys the journal owns; a body must not carry them. */
export const HEADER_KEYS = ['v', 'seq', 'ts', 'prev', 'hash'] as const;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_RE.test(value);
}

export interface EncodedEntry {
  /** The full line including the trailing "\n". */
  line: string;
  hash: string;
  entry: JournalEntry;
}

/** Build the line for `body` at position `seq` after `prev`. Throws on bodies JSON cannot carry. */
export function encodeEntry(body: EntryBody, seq: number, ts: string, prev: string): EncodedEntry {
  for (const key of HEADER_KEYS) {
    if (key in body) throw new TypeError(`history entry body must not set "${key}"`);
  }
  const unhashed = { ...body, v: JOURNAL_FORMAT_VERSION, seq, ts, prev };
  const canonical = canonicalJson(unhashed);
  const hash = sha256Hex(canonical);
  const line = `${canonical.slice(0, -1)}${SUFFIX_HEAD}${hash}"}\n`;
  const entry = JSON.parse(canonical) as JournalEntry;
  entry.hash = hash;
  return { line, hash, entry };
}

export type LineProblem = 'unparseable' | 'malformed' | 'hash-mismatch' | 'not-canonical';

export type CheckedLine =
  { ok: true; entry: JournalEntry } | { ok: false; problem: LineProblem; detail: string; entry?: JournalEntry };

/**
 * Parse one line (without its "\n") and check that its hash matches its content.
 * `strict` also requires the bytes to be exactly the canonical form this journal writes.
 */
export function checkLine(line: string, strict = false): CheckedLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    return { ok: false, problem: 'unparseable', detail: `not JSON (${(err as Error).message})` };
  }
  const header = checkHeader(parsed);
  if (header) return { ok: false, problem: 'malformed', detail: header };
  const entry = parsed as JournalEntry;

  let computed: string;
  const fast =
    line.length > SUFFIX_LENGTH &&
    line.endsWith('"}') &&
    line.startsWith(SUFFIX_HEAD, line.length - SUFFIX_LENGTH) &&
    line.slice(line.length - 66, line.length - 2) === entry.hash;
  if (fast) {
    const prefix = `${line.slice(0, line.length - SUFFIX_LENGTH)}}`;
    computed = sha256Hex(prefix);
    // Not strict: the hash is of the canonical value, so bytes that differ (keys reordered
    // with "hash" still last) are re-canonicalised before a mismatch is called.
    if (computed !== entry.hash && !strict) {
      const { hash: _hash, ...rest } = entry;
      try {
        computed = sha256Hex(canonicalJson(rest));
      } catch (err) {
        return { ok: false, problem: 'malformed', detail: (err as Error).message, entry };
      }
    }
    if (computed === entry.hash && strict) {
      const { hash: _hash, ...rest } = entry;
      if (canonicalJson(rest) !== prefix) {
        return { ok: false, problem: 'not-canonical', detail: 'line is not in canonical form', entry };
      }
    }
  } else {
    if (strict) return { ok: false, problem: 'not-canonical', detail: '"hash" is not the last key of the line', entry };
    const { hash: _hash, ...rest } = entry;
    try {
      computed = sha256Hex(canonicalJson(rest));
    } catch (err) {
      return { ok: false, problem: 'malformed', detail: (err as Error).message, entry };
    }
  }
  if (computed !== entry.hash) {
    return {
      ok: false,
      problem: 'hash-mismatch',
      detail:
        'content does not match its hash ' +
        `(stored ${entry.hash.slice(0, 12)}…, ` +
        `computed ${computed.slice(0, 12)}…)`,
      entry,
    };
  }
  return { ok: true, entry };
}

/** Cheap structural check: is this an object with a usable header? Returns the problem, or null. */
export function checkHeader(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const e = value as Record<string, unknown>;
  if (!Number.isSafeInteger(e.seq) || (e.seq as number) < 1) return 'missing or invalid "seq"';
  if (!isHash(e.hash)) return 'missing or invalid "hash"';
  if (!isHash(e.prev)) return 'missing or invalid "prev"';
  if (typeof e.ts !== 'string') return 'missing or invalid "ts"';
  if (typeof e.kind !== 'string') return 'missing or invalid "kind"';
  if (!Number.isSafeInteger(e.v)) return 'missing or invalid "v"';
  return null;
}
