// Where the approval channel lives for one data folder: both the app and every
// gateway derive it from the data folder alone, so they meet without any
// registry. Unix: a socket in a private (0700) folder; Windows: a named pipe
// whose name is derived from the user and the folder. Either way a token file
// only the user can read is the second half of the handshake (a named pipe's
// default ACL lets other users open it for reading).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../storage/private-files';

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
    // A deep data folder: fall back to a short, per-user, per-folder path in
    // the temp folder, still inside a 0700 folder of its own.
    socketPath = join(
      tmpdir(),
      `countersign-${process.getuid?.() ?? userName()}-${shortHash(dataDir)}`,
      'approval.sock',
    );
  }
  return { runDir, tokenFile, socketPath };
}

/** Create `dir` (and parents) and make it private; see core/storage/private-files. */
export { ensurePrivateDir };

/** Write a fresh token file (0600, atomically). */
export async function writeTokenFile(file: string, token: string): Promise<void> {
  await writePrivateFile(file, `${token}\n`);
}

/** Read a token file; undefined when it does not exist. */
export async function readTokenFile(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
