// Owner-only storage: every private part of the data folder (history, its lock
// and .torn sidecars, run/, settings, credentials) is a 0700 folder holding
// 0600 files. Umask does not decide this: modes are given at creation and
// existing folders and files are tightened when they are opened, so a folder
// left 0755 by an older version stops being readable by other users.
// One module so the history, the approval channel, the config files and the
// credential store all apply the same rule. (Windows: folders under the
// profile are private by their ACL; chmod there only toggles read-only, so the
// mode checks are skipped.)
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** Mode of a private folder. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of a private file. */
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** A private folder or file that is not what it must be (wrong owner, a symlink, not a folder). */
export class PrivateStorageError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'PrivateStorageError';
  }
}

/**
 * Create `dir` (and missing parents, all 0700) and make it private: a real
 * folder (not a symlink), owned by this user, mode 0700. Refuses a folder that
 * belongs to someone else: its owner could read or swap everything inside.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!posix) return;
  const info = await lstat(dir);
  if (info.isSymbolicLink()) throw new PrivateStorageError(dir, `${dir} is a symbolic link; refusing to use it`);
  if (!info.isDirectory()) throw new PrivateStorageError(dir, `${dir} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    throw new PrivateStorageError(
      dir,
      `${dir} belongs to another user (uid ${info.uid}); refusing to keep private data in it`,
    );
  if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(dir, PRIVATE_DIR_MODE);
}

/** How far tightening goes. */
export interface TightenOptions {
  /** Descend into subfolders (default true). Off for the data folder itself, whose 0700 already guards them. */
  recursive?: boolean;
}

/**
 * Tighten what is already inside a private folder: files lose every group and
 * other bit (0644 becomes 0600), subfolders become 0700. Symlinks are left
 * alone and never followed; entries owned by another user are left as they
 * are (we could not chmod them).
 */
export async function tightenPrivateTree(dir: string, options: TightenOptions = {}): Promise<void> {
  if (!posix) return;
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const name of names) {
    const path = join(dir, name);
    let info;
    try {
      info = await lstat(path);
    } catch {
      continue; // removed meanwhile
    }
    if (uid !== undefined && info.uid !== uid) continue;
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(path, PRIVATE_DIR_MODE);
      if (options.recursive !== false) await tightenPrivateTree(path, options);
    } else if (info.isFile() && (info.mode & 0o077) !== 0) {
      await chmod(path, info.mode & 0o700); // keeps an owner execute bit
    }
  }
}

/** ensurePrivateDir, then tighten what is already in it. */
export async function openPrivateDir(dir: string, options: TightenOptions = {}): Promise<void> {
  await ensurePrivateDir(dir);
  await tightenPrivateTree(dir, options);
}

/**
 * Open a file that must stay private (`flags` as for fs.open, e.g. 'a', 'r+',
 * 'wx'). New files are created 0600; an existing file readable by others is
 * tightened through its handle before the handle is returned.
 */
export async function openPrivateFile(path: string, flags: string): Promise<FileHandle> {
  const handle = await open(path, flags, PRIVATE_FILE_MODE);
  if (!posix) return handle;
  try {
    const info = await handle.stat();
    if ((info.mode & 0o077) !== 0) await handle.chmod(info.mode & PRIVATE_FILE_MODE);
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}

/**
 * Replace `path` atomically with `data` (a 0600 temp file beside it, synced,
 * then renamed over it): readers see the old or the new content, never half.
 */
export async function writePrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } catch (e) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
