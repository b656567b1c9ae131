// The history journal: an append-only, hash-chained JSON Lines log of every
// question, answer, call end, protocol fault and journal note, in files
// journal-000001.jsonl, journal-000002.jsonl, … inside one folder.
//
// Durability contract: append() resolves only after the entry's bytes have been
// written and fdatasync'ed (and, for a new file, its folder fsync'ed). The core
// records an answer by awaiting append() BEFORE it sends the answer to the
// server (its history observer is awaited first, electron/core/events.ts), so a
// crash can never leave an answered question unrecorded. Appends are serialised in call order; those that
// arrive while a write is in flight are written together and share one fsync
// (group commit), each still resolving only after that fsync.
//
// Several processes may append to one folder at once (the app, the web shell,
// `countersign call`s): each batch is written under the folder's short append
// lock (lock.ts), after re-reading the chain's tail from disk, so seqs stay
// contiguous and every entry's `prev` is the entry before it, whoever wrote it.
// `ts` is the time append() was called in its own process, so across processes
// it is not strictly increasing in seq order.

import { open, stat, type FileHandle } from 'node:fs/promises';
import { openPrivateDir, openPrivateFile } from '../storage/private-files';
import { join } from 'node:path';
import { encodeEntry, isHash, type EncodedEntry } from './chain';
import { requestStateDigest, redactContent } from './digests';
import { fsyncDir, fsyncParent, journalFileName, listJournalFiles, writeFully, type JournalFile } from './files';
import { withAppendLock } from './lock';
import { buildItems, filterItems, type HistoryFilter, type HistoryItem } from './query';
import { readJournal, type ReadResult } from './reader';
import { owedTornTailNote, scanTail, setAsideTornTail, type TailScan } from './torn-tail';
import {
  GENESIS_HASH,
  type AppendedEntry,
  type EntryBody,
  type EntryInput,
  type JournalEntry,
  type NoteBody,
} from './types';
import { verifyJournal, type VerifyOptions, type VerifyReport } from './verify';
import { vouchedAs } from '../../../shared/vouched-as';

/** Default size at which a new journal file is started: see the README of this folder. */
export const DEFAULT_ROTATE_BYTES = 8 * 1024 * 1024;

export interface HistoryJournalOptions {
  /** Start a new file once the current one would grow past this many bytes. Default 8 MiB. */
  rotateBytes?: number;
  /** Store accepted content as field names + salted hash only. Default false. */
  redact?: boolean;
  /** Take the folder's append lock around each append (default true). Only tests should turn this off. */
  lock?: boolean;
  /** How long an append waits for another process's append (default 15 s). */
  lockTimeoutMs?: number;
  /** Clock for `ts` (tests). */
  now?: () => Date;
}

/** The journal could not write; nothing of the failed append is on disk. */
export class HistoryWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HistoryWriteError';
  }
}

const KINDS = new Set(['question', 'answer', 'call-end', 'fault', 'task', 'note', 'sign-in', 'app']);

interface Pending {
  body: EntryBody;
  ts: string;
  resolve: (value: AppendedEntry) => void;
  reject: (reason: unknown) => void;
}

export interface JournalHead {
  /** 0 when the journal is empty. */
  seq: number;
  hash: string;
  /** File the next entry goes to (unless it rotates). */
  file: string;
}

export class HistoryJournal {
  /** Notes appended while opening (torn tails set aside). */
  readonly recovered: AppendedEntry[] = [];

  private seq = 0;
  private hash = GENESIS_HASH;
  private fileIndex = 1;
  private fileSize = 0;
  private fileExists = false;
  private handle: FileHandle | undefined;
  /** The file `handle` is open on. */
  private handleIndex = 0;
  /** Whether seq/hash/file have been read from disk under the lock at least once. */
  private synced = false;
  private recoveryError: unknown;
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  private redactOn: boolean;
  private readonly rotateBytes: number;
  private readonly now: () => Date;

  private readonly lockOn: boolean;
  private readonly lockTimeoutMs: number | undefined;

  private constructor(
    readonly dir: string,
    options: HistoryJournalOptions,
  ) {
    this.lockOn = options.lock !== false;
    this.lockTimeoutMs = options.lockTimeoutMs;
    this.rotateBytes = options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    this.redactOn = options.redact ?? false;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Open (creating if needed) the journal in `dir` for appending. Sets aside a torn
   * tail left by a crash and records that in a note before returning. Other
   * processes may have the same journal open: every append continues the chain
   * from whatever is on disk at that moment.
   */
  static async open(dir: string, options: HistoryJournalOptions = {}): Promise<HistoryJournal> {
    if (options.rotateBytes !== undefined && !(options.rotateBytes > 0))
      throw new RangeError('rotateBytes must be positive');
    let created = false;
    try {
      await stat(dir);
    } catch {
      created = true;
    }
    // 0700, owned by us; files a looser older version left behind are tightened to 0600.
    await openPrivateDir(dir);
    if (created) await fsyncParent(dir);
    const journal = new HistoryJournal(dir, options);
    try {
      // An empty append: takes the lock, reads the tail, sets aside a torn one.
      await journal.locked(async () => {
        const notes = await journal.syncWithDisk();
        if (notes.length > 0) await journal.writeBatch([], notes);
      });
      if (journal.recoveryError !== undefined) throw journal.recoveryError;
    } catch (err) {
      await journal.close().catch(() => undefined);
      throw err;
    }
    return journal;
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return this.lockOn ? withAppendLock(this.dir, fn, { timeoutMs: this.lockTimeoutMs }) : fn();
  }

  /**
   * Under the lock: bring seq, hash and the current file up to what is on disk
   * (other processes append too), and return the notes owed for torn tails, which
   * only a writer that died mid-append can leave (writers append only under the lock).
   */
  private async syncWithDisk(): Promise<NoteBody[]> {
    if (this.synced && (await this.unchangedOnDisk())) return [];
    const files = await listJournalFiles(this.dir);
    const torn: TailScan[] = [];
    let lastEntry: JournalEntry | undefined;
    let lastEntryFile: JournalFile | undefined;
    for (let i = files.length - 1; i >= 0; i--) {
      const file = files[i]!;
      const scan = await scanTail(this.dir, file.name);
      if (scan.goodSize < scan.size) torn.unshift(scan);
      if (scan.last) {
        lastEntry = scan.last;
        lastEntryFile = file;
        break;
      }
    }
    this.seq = lastEntry?.seq ?? 0;
    this.hash = lastEntry?.hash ?? GENESIS_HASH;
    const notes: NoteBody[] = [];
    for (const scan of torn) {
      notes.push(await setAsideTornTail(this.dir, scan, this.seq + notes.length + 1));
    }
    if (notes.length === 0) {
      const candidates = lastEntryFile ? files.filter((f) => f.index >= lastEntryFile.index) : files;
      const owed = await owedTornTailNote(this.dir, candidates, this.seq);
      if (owed) notes.push(owed);
    }
    const current = files.at(-1);
    if (current) {
      this.fileIndex = current.index;
      this.fileSize = (await stat(join(this.dir, current.name))).size;
      this.fileExists = true;
    } else {
      this.fileIndex = 1;
      this.fileSize = 0;
      this.fileExists = false;
    }
    this.synced = true;
    return notes;
  }

  /** Nothing appended by anyone since our last append: same size, no newer file. */
  private async unchangedOnDisk(): Promise<boolean> {
    try {
      const size = (await stat(join(this.dir, journalFileName(this.fileIndex)))).size;
      if (size !== this.fileSize) return false;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || this.fileExists) return false;
    }
    try {
      await stat(join(this.dir, journalFileName(this.fileIndex + 1)));
      return false;
    } catch {
      return true;
    }
  }

  /** The end of the chain as this writer knows it. */
  get head(): JournalHead {
    return { seq: this.seq, hash: this.hash, file: journalFileName(this.fileIndex) };
  }

  get redact(): boolean {
    return this.redactOn;
  }

  /** Change the redaction setting; records a note when it changes. Applies to every append made after this call. */
  async setRedact(redact: boolean): Promise<void> {
    if (redact === this.redactOn) return;
    this.redactOn = redact;
    await this.append({
      kind: 'note',
      note: 'redaction',
      redact,
      detail: redact
        ? 'Answer content redaction turned on: accepted content is stored as field names and a salted hash.'
        : 'Answer content redaction turned off: accepted content is stored as given.',
    });
  }

  /**
   * Append one entry. Resolves once it is durably on disk, with its seq and hash;
   * rejects (HistoryWriteError, or TypeError for a body JSON cannot carry) with
   * nothing written. Never send an answer to a server before this resolves.
   */
  append(input: EntryInput): Promise<AppendedEntry> {
    if (this.closed) return Promise.reject(new HistoryWriteError('history journal is closed'));
    if (this.failure) return Promise.reject(this.failure);
    let body: EntryBody;
    try {
      body = this.prepare(input);
    } catch (err) {
      return Promise.reject(err);
    }
    const ts = this.now().toISOString();
    return new Promise<AppendedEntry>((resolve, reject) => {
      this.queue.push({ body, ts, resolve, reject });
      // flushLoop always awaits before it can finish, so `flushing` is set before it is cleared.
      this.flushing ??= this.flushLoop();
    });
  }

  /** Copy the input into what is stored: requestState digested, content redacted when asked. */
  private prepare(input: EntryInput): EntryBody {
    if (typeof input !== 'object' || input === null || !KINDS.has((input as { kind?: unknown }).kind as string)) {
      throw new TypeError(`unknown history entry kind ${JSON.stringify((input as { kind?: unknown } | null)?.kind)}`);
    }
    const body: Record<string, unknown> = { ...input };
    if (input.kind === 'question' && input.requestState !== undefined) {
      const rs = input.requestState;
      if (typeof rs === 'string') {
        body.requestState = requestStateDigest(rs);
      } else if (typeof rs === 'object' && rs !== null && Number.isSafeInteger(rs.length) && isHash(rs.sha256)) {
        body.requestState = { length: rs.length, sha256: rs.sha256 };
      } else {
        throw new TypeError('requestState must be the raw string or a {length, sha256} digest');
      }
    }
    if (input.kind === 'answer') {
      delete body.redacted;
      if (input.content !== undefined && this.redactOn) {
        delete body.content;
        body.redacted = redactContent(input.content);
      }
    }
    // The input's kind was checked above; only requestState and content were replaced, by their stored forms.
    return vouchedAs<EntryBody>(body);
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, 4096);
        if (this.failure) {
          for (const p of batch) p.reject(this.failure);
          continue;
        }
        try {
          await this.locked(async () => this.writeBatch(batch, await this.syncWithDisk()));
        } catch (err) {
          // The lock or the tail could not be had: nothing of this batch was written.
          this.failEntries(
            batch.map((p) => ({ p })),
            err,
            'could not append to the history journal',
          );
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /** Under the lock, after syncWithDisk: chain `notes` (owed torn-tail notes) then `batch`, write, sync. */
  private async writeBatch(batch: Pending[], notes: NoteBody[]): Promise<void> {
    if (notes.length > 0) {
      const ts = this.now().toISOString();
      const owed: Pending[] = notes.map((body) => ({
        body,
        ts,
        resolve: (a) => this.recovered.push(a),
        reject: (err) => (this.recoveryError ??= err),
      }));
      batch = [...owed, ...batch];
    }
    // Chain the batch (provisionally: the state moves only once bytes are synced).
    let seq = this.seq;
    let prev = this.hash;
    const encoded: Array<{ p: Pending; enc: EncodedEntry; bytes: Buffer }> = [];
    for (const p of batch) {
      let enc: EncodedEntry;
      try {
        enc = encodeEntry(p.body, seq + 1, p.ts, prev);
      } catch (err) {
        p.reject(err);
        continue;
      }
      seq += 1;
      prev = enc.hash;
      encoded.push({ p, enc, bytes: Buffer.from(enc.line, 'utf8') });
    }
    // Split into segments at rotation points; each segment is written and synced on its own.
    let start = 0;
    while (start < encoded.length) {
      if (this.fileSize > 0 && this.fileSize + encoded[start]!.bytes.length > this.rotateBytes) {
        try {
          await this.rotate();
        } catch (err) {
          this.failEntries(encoded.slice(start), err, 'could not start a new history file');
          return;
        }
      }
      let end = start;
      let size = this.fileSize;
      while (end < encoded.length && (end === start || size + encoded[end]!.bytes.length <= this.rotateBytes)) {
        size += encoded[end]!.bytes.length;
        end++;
      }
      const segment = encoded.slice(start, end);
      if (!(await this.writeSegment(segment))) {
        this.failEntries(encoded.slice(end), this.failure ?? new HistoryWriteError('an earlier entry failed'), '');
        return;
      }
      start = end;
    }
  }

  /** Write and sync one segment; on failure roll the file back and reject it. */
  private async writeSegment(segment: Array<{ p: Pending; enc: EncodedEntry; bytes: Buffer }>): Promise<boolean> {
    const data = segment.length === 1 ? segment[0]!.bytes : Buffer.concat(segment.map((s) => s.bytes));
    const file = journalFileName(this.fileIndex);
    try {
      const handle = await this.currentHandle();
      await writeFully(handle, data);
      await handle.datasync();
    } catch (err) {
      await this.rollBack();
      this.failEntries(segment, err, `could not write to history file ${file}`);
      return false;
    }
    this.fileSize += data.length;
    const last = segment.at(-1)!.enc;
    this.seq = last.entry.seq;
    this.hash = last.hash;
    for (const { p, enc } of segment) {
      p.resolve({ seq: enc.entry.seq, hash: enc.hash, ts: enc.entry.ts, file, entry: enc.entry });
    }
    return true;
  }

  private failEntries(items: Array<{ p: Pending }>, cause: unknown, message: string): void {
    const error =
      cause instanceof HistoryWriteError
        ? cause
        : new HistoryWriteError(`${message}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    for (const { p } of items) p.reject(error);
  }

  /** After a failed write, cut the file back to its last synced size, or stop accepting appends. */
  private async rollBack(): Promise<void> {
    if (!this.fileExists) return;
    try {
      // A separate handle: an append-mode handle may not truncate (Windows).
      const handle = await open(join(this.dir, journalFileName(this.fileIndex)), 'r+');
      try {
        await handle.truncate(this.fileSize);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch (err) {
      this.failure = new HistoryWriteError(
        'history journal could not recover from a write error; reopen it (the torn tail will be set aside)',
        { cause: err },
      );
    }
  }

  private async currentHandle(): Promise<FileHandle> {
    if (this.handle && this.handleIndex !== this.fileIndex) {
      // Another process started a newer file since our last append.
      const old = this.handle;
      this.handle = undefined;
      await old.close();
    }
    if (!this.handle) {
      const path = join(this.dir, journalFileName(this.fileIndex));
      this.handle = await openPrivateFile(path, 'a');
      this.handleIndex = this.fileIndex;
      if (!this.fileExists) {
        await fsyncDir(this.dir);
        this.fileExists = true;
      }
    }
    return this.handle;
  }

  private async rotate(): Promise<void> {
    const next = this.fileIndex + 1;
    const path = join(this.dir, journalFileName(next));
    let handle: FileHandle;
    try {
      handle = await openPrivateFile(path, 'ax');
    } catch (err) {
      // Left empty by an earlier rotation that failed to sync the folder: reuse it.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || (await stat(path)).size !== 0) throw err;
      handle = await openPrivateFile(path, 'a');
    }
    try {
      await fsyncDir(this.dir);
    } catch (err) {
      await handle.close();
      throw err;
    }
    const old = this.handle;
    this.handle = handle;
    this.handleIndex = next;
    this.fileIndex = next;
    this.fileSize = 0;
    this.fileExists = true;
    await old?.close();
  }

  /** Resolves when every append made so far has settled. */
  async flushed(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Every entry on disk (after pending appends settle). */
  async readAll(): Promise<ReadResult> {
    await this.flushed();
    return readJournal(this.dir);
  }

  /** Questions (with their answers and call ends), faults and notes matching `filter`, oldest first. */
  async query(filter: HistoryFilter = {}): Promise<HistoryItem[]> {
    const { entries } = await this.readAll();
    return filterItems(buildItems(entries), filter);
  }

  /** Check the whole chain across all files. */
  async verify(options?: VerifyOptions): Promise<VerifyReport> {
    await this.flushed();
    return verifyJournal(this.dir, options);
  }

  /** Wait for pending appends and close the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushed();
    await this.handle?.close();
    this.handle = undefined;
  }
}
