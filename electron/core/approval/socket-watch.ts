// Notices when the approval socket's path stops naming the socket this app
// bound: another process unlinked it (gateways then find nothing, or start a
// second app) or put its own socket there (gateways then talk to that
// process). A listening socket keeps working after its path is gone, so
// nothing else would ever tell the app. Watched two ways: a folder watch for
// a prompt report, and a slow poll in case the watch misses an event (some
// file systems report nothing). Neither is a decision timer: they never end
// or shorten anything the human is deciding.
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/** The inode a path names. */
export interface SocketIdentity {
  dev: number;
  ino: number;
}

/** What the path names now, compared with the socket that was bound. */
export type SocketState = 'ours' | 'missing' | 'replaced';

/** The identity of whatever `path` names (not following a symlink), or undefined when nothing is there. */
export async function identityOf(path: string): Promise<SocketIdentity | undefined> {
  try {
    const s = await lstat(path);
    return { dev: s.dev, ino: s.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Compare what `path` names with `bound`. */
export async function socketState(path: string, bound: SocketIdentity): Promise<SocketState> {
  const now = await identityOf(path);
  if (!now) return 'missing';
  return now.dev === bound.dev && now.ino === bound.ino ? 'ours' : 'replaced';
}

export interface SocketWatch {
  /** Check now (also what the watch and the poll call). */
  check(): Promise<void>;
  /** The socket was bound again: compare with this one from now on. */
  rebound(identity: SocketIdentity): void;
  stop(): void;
}

/**
 * Watch `path`; `onChange` is told each time its state changes (to 'missing'
 * or 'replaced', and back to 'ours' after a re-bind). Checks never overlap.
 */
export function watchSocket(
  path: string,
  bound: SocketIdentity,
  onChange: (state: SocketState) => void | Promise<void>,
  pollMs = 2_000,
): SocketWatch {
  let identity = bound;
  let last: SocketState = 'ours';
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = async () => {
    do {
      again = false;
      const state = await socketState(path, identity).catch(() => last);
      if (!stopped && state !== last) {
        last = state;
        await onChange(state);
      }
    } while (again && !stopped);
  };
  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => (running = undefined));
    return running;
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_event, file) => {
      if (file === null || file === basename(path)) void check();
    });
    watcher.on('error', () => undefined);
    watcher.unref();
  } catch {
    // No watch on this file system: the poll alone notices.
  }
  const timer = setInterval(() => void check(), pollMs);
  timer.unref();
  return {
    check,
    rebound(next) {
      identity = next;
      last = 'ours';
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
