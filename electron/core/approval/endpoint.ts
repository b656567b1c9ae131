// Where the approval channel lives for one data folder: both the app and every
// gateway derive it from the data folder alone, so they meet without any
// registry. Unix: a socket in a private (0700) folder; Windows: a named pipe
// whose name is derived from the user and the folder. Either way a token file
// only the user can read is the second half of the handshake (a named pipe's
// default ACL lets other users open it for reading).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, readCheckedFile, readCheckedFileSync, writePrivateFile } from '../storage/private-files';

/** The approval endpoint of one data folder. */
export interface ApprovalEndpoint {
  /** The private folder holding the token (and, on Unix, the socket). */
  runDir: string;
  /** What net.connect / server.listen take: a socket path or a pipe name. */
  socketPath: string;
  /** The handshake secret, readable only by the user. */
  tokenFile: string;
}

// sun_path holds 104 bytes on macOS and 108 on Linux, terminator included.
const MAX_SOCKET_PATH_BYTES = 100;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function keyedHash(key: string, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex').slice(0, 16);
}

const KEY_PATTERN = /^[0-9a-f]{32}$/;

/**
 * The secret that names the fallback socket folder: created once per data
 * folder (0600 in the private run/ folder), the same for the app and every
 * gateway of that folder, unreadable to other users. Synchronous because the
 * endpoint is computed synchronously; only deep data folders get here.
 */
function socketDirKey(runDir: string): string {
  const file = join(runDir, 'socket-dir.key');
  const read = () => {
    const key = readCheckedFileSync(file)?.trim();
    if (key === undefined) throw Object.assign(new Error(`${file} does not exist`), { code: 'ENOENT' });
    if (!KEY_PATTERN.test(key))
      throw new Error(`${file} is not a socket folder key (32 hex digits); delete it and start again`);
    return key;
  };
  try {
    return read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: whoever links first wins and nobody reads half a key.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${randomBytes(16).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  return read();
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}

/** The endpoint for `dataDir` on `platform`. */
export function approvalEndpoint(dataDir: string, platform: NodeJS.Platform = process.platform): ApprovalEndpoint {
  const runDir = join(dataDir, 'run');
  const tokenFile = join(runDir, 'approval.token');
  if (platform === 'win32') {
    return {
      runDir,
      tokenFile,
      socketPath: `\\\\.\\pipe\\countersign-approval-${shortHash(`${userName()}\0${dataDir}`)}`,
    };
  }
  let socketPath = join(runDir, 'approval.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    // A deep data folder: fall back to a short path in the temp folder, in a
    // 0700 folder of its own. Its name is keyed by a secret kept in run/, so
    // another user cannot predict it and create it first to keep the app
    // from starting (a name derived from the folder alone could be squatted).
    socketPath = join(
      tmpdir(),
      `countersign-${process.getuid?.() ?? userName()}-${keyedHash(socketDirKey(runDir), dataDir)}`,
      'approval.sock',
    );
  }
  return { runDir, tokenFile, socketPath };
}

/**
 * The endpoint in a folder shared across users (./shared-folder.ts): the
 * socket and key sit in the folder itself, which the approving user owns.
 */
export function sharedEndpoint(folder: string): ApprovalEndpoint {
  return { runDir: folder, socketPath: join(folder, 'approval.sock'), tokenFile: join(folder, 'approval.token') };
}

/** Create `dir` (and parents) and make it private; see core/storage/private-files. */
export { ensurePrivateDir };

/** Write a fresh token file (0600, atomically). */
export async function writeTokenFile(file: string, token: string): Promise<void> {
  await writePrivateFile(file, `${token}\n`);
}

/**
 * Read a token file; undefined when it does not exist. One in this user's
 * run/ folder must be this user's own (private-files). One in another user's
 * shared folder is the approver's by design: checkApproverFolder has checked
 * its owner and folders before this is read.
 */
export async function readTokenFile(
  file: string,
  where: 'private' | 'shared' = 'private',
): Promise<string | undefined> {
  if (where === 'private') return (await readCheckedFile(file))?.trim();
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
