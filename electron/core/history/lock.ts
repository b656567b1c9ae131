// Several writers per journal folder, one append at a time. The app, the web
// shell and any number of `countersign call`s may all record into the same
// journal: each takes `writer.lock` only for the few milliseconds of one append
// (read the chain's tail, assign seqs, write, fdatasync), so their entries
// interleave into one chain instead of forking it.
//
// The lock is a file created exclusively (O_CREAT|O_EXCL: atomic on every local
// file system, no native module). One left behind by a writer that died while
// holding it (crash, SIGKILL, reboot) is stale and broken: its process is gone,
// or the machine has booted since. Breaking goes through a second exclusive file
// (`writer.lock.break`) and re-reads the lock under it, so two processes that
// both judge the same lock stale cannot remove each other's fresh lock.

import { randomBytes } from 'node:crypto';
import { hostname, uptime } from 'node:os';
import { join, resolve } from 'node:path';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../storage/private-files';

export const LOCK_FILE = 'writer.lock';
const BREAK_FILE = 'writer.lock.break';
/** How long a writer waits for a live holder before giving up (holds last milliseconds). */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;
/** However the lock changes hands, a writer waits at most this many timeouts in all. */
const MAX_WAIT_TIMEOUTS = 8;
/** A lock file still empty or half-written this long after it was created is treated as stale. */
const HALF_WRITTEN_GRACE_MS = 5_000;

interface LockInfo {
  pid: number;
  host: string;
  /** Machine boot time (ms since epoch, ±a few seconds). */
  boot: number;
  /** Tells two holders with one pid apart (this process's earlier incarnation after pid reuse). */
  nonce: string;
  at: string;
}

/** The lock stayed held by a live process for longer than the writer was willing to wait. */
export class JournalLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Partial<LockInfo>,
    waitedMs = 0,
  ) {
    super(
      `history journal in ${dir} stayed locked for ${Math.round(waitedMs / 1000)} s by process ${holder.pid ?? '?'} ` +
        `on ${holder.host ?? '?'} (a writer holds it only while appending; is that process stopped?)`,
    );
    this.name = 'JournalLockedError';
  }
}

function bootTime(): number {
  return Date.now() - uptime() * 1000;
}

export interface AppendLockOptions {
  timeoutMs?: number;
}

// Journals of one process on one folder queue here rather than polling a file
// their own process holds.
const inProcess = new Map<string, Promise<void>>();

/** Run `fn` holding the folder's append lock (across processes and within this one). */
export async function withAppendLock<T>(
  dir: string,
  fn: () => Promise<T>,
  options: AppendLockOptions = {},
): Promise<T> {
  const key = resolve(dir);
  const before = inProcess.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const tail = before.then(() => mine);
  inProcess.set(key, tail);
  await before;
  try {
    const release = await acquire(dir, options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
    try {
      return await fn();
    } finally {
      await release();
    }
  } finally {
    done();
    if (inProcess.get(key) === tail) inProcess.delete(key);
  }
}

async function acquire(dir: string, timeoutMs: number): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = {
    pid: process.pid,
    host: hostname(),
    boot: bootTime(),
    nonce: randomBytes(8).toString('hex'),
    at: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  const started = Date.now();
  // The wait that counts is for one holder: a busy journal (many writers, each holding it for milliseconds) hands
  // the lock on and on, and a writer that keeps losing that race is slow, not stuck. Only a holder that keeps it
  // for timeoutMs is a stopped process; a wait of many times that in all ends too, so nothing waits for ever.
  let holder: string | undefined;
  let holderSince = started;
  let backoff = 1;
  for (;;) {
    try {
      const handle = await open(path, 'wx', PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return async () => {
        // Only ever ours: nobody else removes a lock whose holder is alive.
        try {
          if ((await readFile(path, 'utf8')) === text) await unlink(path);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const seen = await readLock(path);
    if (seen === null) continue; // released meanwhile
    if (isStale(seen.info)) {
      await breakStale(dir, seen.raw);
      continue;
    }
    const now = Date.now();
    if (seen.raw !== holder) {
      holder = seen.raw;
      holderSince = now;
    }
    if (now - holderSince > timeoutMs || now - started > timeoutMs * MAX_WAIT_TIMEOUTS)
      throw new JournalLockedError(dir, seen.info, now - holderSince);
    await new Promise((r) => setTimeout(r, backoff * (0.5 + Math.random())));
    backoff = Math.min(backoff * 2, 25);
  }
}

/** Remove the lock if it still holds exactly `staleRaw`, under the break lock. */
async function breakStale(dir: string, staleRaw: string): Promise<void> {
  const path = join(dir, LOCK_FILE);
  const breakPath = join(dir, BREAK_FILE);
  try {
    const handle = await open(breakPath, 'wx', PRIVATE_FILE_MODE);
    await handle.close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process is breaking it right now, or died doing so (held for microseconds).
    try {
      if (Date.now() - (await stat(breakPath)).mtimeMs > HALF_WRITTEN_GRACE_MS) await unlink(breakPath);
    } catch {
      /* gone meanwhile */
    }
    await new Promise((r) => setTimeout(r, 2));
    return;
  }
  try {
    let now: string | null = null;
    try {
      now = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (now === staleRaw) await unlink(path);
  } finally {
    await unlink(breakPath).catch(() => undefined);
  }
}

async function readLock(
  path: string,
): Promise<{ raw: string; info: Partial<LockInfo> & { halfWritten?: boolean } } | null> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null) return { raw, info: parsed };
  } catch {
    /* empty or half-written: see below */
  }
  // Its writer is creating it right now, or died while doing so.
  try {
    const young = Date.now() - (await stat(path)).mtimeMs < HALF_WRITTEN_GRACE_MS;
    return { raw, info: young ? { halfWritten: true } : {} };
  } catch {
    return null;
  }
}

function isStale(holder: Partial<LockInfo> & { halfWritten?: boolean }): boolean {
  if (holder.halfWritten) return false;
  if (typeof holder.pid !== 'number') return true;
  // A lock from another machine (shared folder): we cannot tell, so it holds.
  if (holder.host !== undefined && holder.host !== hostname()) return false;
  // Rebooted since: whatever pid it names is not that writer any more.
  if (typeof holder.boot === 'number' && Math.abs(holder.boot - bootTime()) > 120_000) return true;
  // Our own pid while this process holds the in-process turn: left by an earlier
  // process that had our pid (pid reuse after a crash), since we release ours.
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
