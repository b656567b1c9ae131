// One writer per journal folder. Two writers would fork the chain (both would
// append seq N+1 after N), so the writer takes `writer.lock`, created exclusively.
// A lock left behind by a writer that died (crash, SIGKILL, reboot) is stale and
// taken over: its process is gone, or the machine has booted since.

import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../storage/private-files';

export const LOCK_FILE = 'writer.lock';

interface LockInfo {
  pid: number;
  host: string;
  /** Machine boot time (ms since epoch, ±a few seconds). */
  boot: number;
  at: string;
}

export class JournalLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Partial<LockInfo>,
  ) {
    super(
      `history journal in ${dir} is already open for writing (process ${holder.pid ?? '?'} on ${holder.host ?? '?'})`,
    );
    this.name = 'JournalLockedError';
  }
}

function bootTime(): number {
  return Date.now() - uptime() * 1000;
}

export interface WriterLock {
  release(): Promise<void>;
}

export async function acquireWriterLock(dir: string): Promise<WriterLock> {
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), boot: bootTime(), at: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return {
        async release() {
          // Remove it only if it is still ours.
          try {
            if ((await readFile(path, 'utf8')) === text) await unlink(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readLock(path);
    if (!isStale(holder)) throw new JournalLockedError(dir, holder ?? {});
    try {
      await unlink(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new JournalLockedError(dir, (await readLock(path)) ?? {});
}

async function readLock(path: string): Promise<Partial<LockInfo> | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Unreadable or half-written: its writer died while creating it, or is creating it right now.
    try {
      if (Date.now() - (await stat(path)).mtimeMs < 5_000) return { pid: -1 };
    } catch {
      return null;
    }
    return {};
  }
}

function isStale(holder: Partial<LockInfo> | null): boolean {
  if (holder === null) return true; // vanished meanwhile
  if (holder.pid === -1) return false; // being written this very moment
  if (typeof holder.pid !== 'number') return true;
  // A lock from another machine (shared folder): we cannot tell, so it holds.
  if (holder.host !== undefined && holder.host !== hostname()) return false;
  // Rebooted since: whatever pid it names is not that writer any more.
  if (typeof holder.boot === 'number' && Math.abs(holder.boot - bootTime()) > 120_000) return true;
  if (holder.pid === process.pid) return false; // open twice in this very process
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
