// Owner-only storage: every private part of the data folder (history, its lock
// and .torn sidecars, run/, settings, credentials) is a 0700 folder holding
// 0600 files. Umask does not decide this: modes are given at creation and
// existing folders and files are tightened when they are opened, so a folder
// left 0755 by an older version stops being readable by other users.
// What is foreign is refused, never tightened: a folder or file owned by
// another user (its owner could read it, or choose what it says, e.g. the
// command a servers.json runs), or a symlink in place of a private file or
// folder. The refusal is one line naming the path and the command that fixes
// it (a HostError 'config': the CLI exits 2 with it).
// A file the user names outside the data folder (`call --config FILE`) is
// the user's own business: it must be theirs and not writable by others, but
// it is never chmod-ed (it may be a project's shared mcp.json).
// One module so the history, the approval channel, the config files and the
// credential store all apply the same rule. (Windows: folders under the
// profile are private by their ACL; chmod there only toggles read-only, so the
// mode checks are skipped.)
import { randomBytes } from 'node:crypto';
import { constants, closeSync, fstatSync, fchmodSync, openSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { HostError } from '../host-error';

/** Mode of a private folder. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of a private file. */
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** A private folder or file that is not what it must be (wrong owner, a symlink, not a folder). */
export class PrivateStorageError extends HostError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('config', message);
  }
}

/** A path as a shell word, for the fix commands in refusals. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

function ownUid(): number | undefined {
  return posix ? process.getuid?.() : undefined;
}

function foreignFolder(dir: string, uid: number, me: number): PrivateStorageError {
  return new PrivateStorageError(
    dir,
    `refusing ${dir}: it belongs to uid ${uid}, not to you (uid ${me}), so its owner can read and replace ` +
      'what is in it; fix: use a folder of your own, or check it and take it over: ' +
      `sudo chown -R ${me} ${shellWord(dir)}`,
  );
}

function linkedFolder(dir: string): PrivateStorageError {
  let real = '';
  try {
    real = realpathSync(dir);
  } catch {
    // a dangling link: no real path to suggest
  }
  return new PrivateStorageError(
    dir,
    `refusing ${dir}: it is a symbolic link, and a private folder must be the folder itself; ` +
      `fix: ${real ? `use the real path ${shellWord(real)}` : `remove the link: rm ${shellWord(dir)}`}`,
  );
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
  if (info.isSymbolicLink()) throw linkedFolder(dir);
  if (!info.isDirectory())
    throw new PrivateStorageError(
      dir,
      `refusing ${dir}: it is not a folder; fix: move it aside: mv ${shellWord(dir)}{,.old}`,
    );
  const uid = ownUid();
  if (uid !== undefined && info.uid !== uid) throw foreignFolder(dir, info.uid, uid);
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

/** The data folder's own subfolders, tightened all the way down when the data folder is opened. */
const DATA_SUBFOLDERS = ['tasks', 'credentials', 'history', 'run', 'demo'];

/**
 * What every entry point (app, web shell, CLI, gateway) does first with the
 * data folder: create it or check it is ours and no symlink, then tighten it,
 * what is directly in it, and its own subfolders all the way down, so a loose
 * file deep inside (tasks/tasks.json) is not left readable by whatever opened
 * it before. Only its own subfolders: a data folder pointed at a home folder
 * by mistake must not chmod the whole home. A sticky folder (/tmp) is shared
 * by design and never a data folder.
 */
export async function openDataFolder(dir: string): Promise<void> {
  if (posix) {
    const info = await lstat(dir).catch(() => undefined);
    if (info?.isDirectory() && (info.mode & 0o1000) !== 0)
      throw new PrivateStorageError(
        dir,
        `refusing ${dir} as the data folder: it is a folder shared by every user (sticky, like /tmp); ` +
          `fix: use a folder of its own, e.g. COUNTERSIGN_DATA_DIR=${shellWord(join(dir, 'countersign'))}`,
      );
  }
  await ensurePrivateDir(dir);
  await tightenPrivateTree(dir, { recursive: false });
  for (const name of DATA_SUBFOLDERS) {
    const sub = join(dir, name);
    // Never through a symlink: what it points to is not the data folder's.
    if ((await lstat(sub).catch(() => undefined))?.isDirectory()) await tightenPrivateTree(sub);
  }
}

/** Where a file lies: in the data folder (tightened when loose), or named by the user elsewhere (never chmod-ed). */
export type FilePlace = 'private' | 'own';

const NO_FOLLOW = posix ? constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK : constants.O_RDONLY;

/** Why a file just opened (its fstat) must not be read, or undefined; `tighten` is called for a loose private file. */
function refusal(path: string, info: Stats, place: FilePlace): PrivateStorageError | 'tighten' | undefined {
  const me = ownUid();
  if (me === undefined) return undefined;
  if (!info.isFile())
    return new PrivateStorageError(
      path,
      `refusing ${path}: it is not a regular file; fix: move it aside: mv ${shellWord(path)}{,.old}`,
    );
  if (info.uid !== me)
    return new PrivateStorageError(
      path,
      `refusing ${path}: it belongs to uid ${info.uid}, not to you (uid ${me}), so its owner chooses what it says; ` +
        `fix: check it, then take it over: sudo chown ${me} ${shellWord(path)}`,
    );
  if (place === 'private') return (info.mode & 0o077) !== 0 ? 'tighten' : undefined;
  if ((info.mode & 0o022) !== 0)
    return new PrivateStorageError(
      path,
      `refusing ${path}: it is writable by ${info.mode & 0o002 ? 'every user' : 'its group'} ` +
        `(mode ${(info.mode & 0o777).toString(8)}), so someone else could choose what it says; ` +
        `fix: chmod go-w ${shellWord(path)}`,
    );
  return undefined;
}

function openError(path: string, e: unknown): never {
  if ((e as NodeJS.ErrnoException).code === 'ELOOP')
    throw new PrivateStorageError(
      path,
      `refusing ${path}: it is a symbolic link, and Countersign reads only the file itself; ` +
        'fix: replace the link with a copy you have checked: ' +
        `cp --remove-destination "$(readlink -f ${shellWord(path)})" ${shellWord(path)}`,
    );
  throw e;
}

/**
 * Read a text file that configures or feeds the host, after checking what
 * was opened (no symlink is followed; the checks are on the open handle, so
 * nothing can be swapped in between): a regular file owned by this user.
 * 'private' (in the data folder): a loose one is tightened to owner-only.
 * 'own' (named by the user elsewhere): one writable by group or others is
 * refused, and nothing is chmod-ed. Undefined when the file does not exist.
 */
export async function readCheckedFile(path: string, place: FilePlace = 'private'): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, NO_FOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return openError(path, e);
  }
  try {
    const info = await handle.stat();
    const verdict = refusal(path, info, place);
    if (verdict instanceof PrivateStorageError) throw verdict;
    if (verdict === 'tighten') await handle.chmod(info.mode & 0o700);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** readCheckedFile for the few readers that must stay synchronous (the approval endpoint, the gateway's config). */
export function readCheckedFileSync(path: string, place: FilePlace = 'private'): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return openError(path, e);
  }
  try {
    const info = fstatSync(fd);
    const verdict = refusal(path, info, place);
    if (verdict instanceof PrivateStorageError) throw verdict;
    if (verdict === 'tighten') fchmodSync(fd, info.mode & 0o700);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Open a file that must stay private (`flags` as for fs.open, e.g. 'a', 'r+',
 * 'wx'). New files are created 0600; an existing file readable by others is
 * tightened through its handle before the handle is returned; one owned by
 * another user is refused.
 */
export async function openPrivateFile(path: string, flags: string): Promise<FileHandle> {
  const handle = await open(path, flags, PRIVATE_FILE_MODE);
  if (!posix) return handle;
  try {
    const info = await handle.stat();
    // A file someone else made (while the folder was loose) would let its owner read what is written to it.
    const verdict = refusal(path, info, 'private');
    if (verdict instanceof PrivateStorageError) throw verdict;
    if (verdict === 'tighten') await handle.chmod(info.mode & PRIVATE_FILE_MODE);
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
