// The approval channel across two OS users (issue 9, item 4): the approving
// user's app serves in a folder it owns, group-traversable for the agent's
// group but writable by nobody else; a gateway running as the agent checks
// that ownership before it connects, so only the approver (or root) can have
// bound the socket it talks to.
//
// Why ownership is enough: bind() creates the socket's inode with the
// caller's uid. In a folder the agent cannot write, the agent can neither
// create nor rename entries, so an approver-owned socket there was bound by
// the approver or by root. Every folder above must be just as safe (owned by
// root or the approver, not writable by others unless sticky, as /tmp is),
// and no component may be a symlink the agent could point elsewhere.
// SO_PEERCRED would say the same about the live peer, but Node cannot read it
// without native code.
//
//   app side      DATA/approval-share.json  {"group": "countersign-agents", "folder": "/srv/countersign/alice"}
//                 folder 0750 owner:group, approval.sock 0660, approval.token 0640
//   gateway side  --approver alice --approval-dir /srv/countersign/alice
//                 (or "approver" and "approvalDir" in the gateway's DATA/gateway.json)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import { readCheckedFileSync } from '../storage/private-files';

/** The app's share configuration: serve the approval socket to a group, in a folder outside the data folder. */
export interface ApprovalShare {
  /** The group whose members may connect (a name or a numeric gid). */
  group: string;
  gid: number;
  /** An absolute folder the app owns and creates if needed; its parent must exist. */
  folder: string;
}

/** The file in the app's data folder that turns sharing on. */
export const SHARE_FILE = 'approval-share.json';

/** The numeric id of a group (a number as is; a name through getent or /etc/group). */
export function groupId(group: string): number {
  if (/^\d+$/.test(group)) return Number(group);
  const fromLine = (line: string | undefined) => {
    const gid = line?.split(':')[2];
    return gid !== undefined && /^\d+$/.test(gid) ? Number(gid) : undefined;
  };
  try {
    const gid = fromLine(
      execFileSync('getent', ['group', group], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(
        '\n',
      )[0],
    );
    if (gid !== undefined) return gid;
  } catch {
    // no getent (macOS), or no such group: try the file
  }
  try {
    const gid = fromLine(
      readFileSync('/etc/group', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${group}:`)),
    );
    if (gid !== undefined) return gid;
  } catch {
    // no /etc/group
  }
  throw new Error(`there is no group "${group}" on this machine`);
}

/** The numeric id of a user (a number as is; a name through `id -u`). */
export function userId(user: string): number {
  if (/^\d+$/.test(user)) return Number(user);
  try {
    const out = execFileSync('id', ['-u', '--', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    if (/^\d+\s*$/.test(out)) return Number(out.trim());
  } catch {
    // fall through
  }
  throw new Error(`there is no user "${user}" on this machine`);
}

/** The share configuration of `dataDir`, or undefined when it has none; a clear error when it is malformed. */
export function readShare(dataDir: string): ApprovalShare | undefined {
  const file = join(dataDir, SHARE_FILE);
  // It decides who may connect: read only when it is this user's own (private-files).
  const text = readCheckedFileSync(file);
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not JSON: ${(e as Error).message}`);
  }
  const { group, folder } = (doc ?? {}) as { group?: unknown; folder?: unknown };
  if (typeof group !== 'string' || group === '' || typeof folder !== 'string' || !isAbsolute(folder))
    throw new Error(
      `${file}: needs "group" (the agent's group) and "folder" (an absolute path outside the data folder), e.g. ` +
        `{"group": "countersign-agents", "folder": "/srv/countersign/${process.env.USER ?? 'you'}"}`,
    );
  return { group, gid: groupId(group), folder: resolve(folder) };
}

/**
 * App side: create or tighten the shared folder: a real folder (no symlink)
 * owned by this user, group `gid`, mode 0750. A folder owned by someone
 * else is refused: it could be replaced under us.
 */
export async function ensureSharedFolder(share: ApprovalShare): Promise<void> {
  await mkdir(share.folder, { mode: 0o750 }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw new Error(`cannot create the shared approval folder ${share.folder}: ${e.message}`);
  });
  const s = await lstat(share.folder);
  if (!s.isDirectory()) throw new Error(`the shared approval folder ${share.folder} is not a folder (or is a symlink)`);
  if (s.uid !== process.getuid?.())
    throw new Error(`the shared approval folder ${share.folder} belongs to uid ${s.uid}, not to this user`);
  await chown(share.folder, s.uid, share.gid).catch((e: Error) => {
    throw new Error(
      `cannot give the shared approval folder ${share.folder} to group ${share.group} (${e.message}); ` +
        'this user must be a member of it',
    );
  });
  await chmod(share.folder, 0o750);
}

/** App side: write the key 0640 in the share's group, atomically (written aside, then renamed). */
export async function writeSharedKey(file: string, key: string, gid: number): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(`${key}\n`);
    await handle.chown(process.getuid?.() ?? -1, gid);
    await handle.chmod(0o640);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file).catch(async (e: Error) => {
    await unlink(tmp).catch(() => undefined);
    throw e;
  });
}

/** App side: the bound socket, connectable by the group only. */
export async function shareSocket(path: string, gid: number): Promise<void> {
  await chown(path, process.getuid?.() ?? -1, gid);
  await chmod(path, 0o660);
}

/** Whose the approval socket must be, as the gateway checks it. */
export interface Approver {
  /** As given (a name or a uid), for messages. */
  name: string;
  uid: number;
}

/**
 * Gateway side: refuse unless only `approver` (or root) can have bound the
 * socket in `folder`: every folder from / down is no symlink, owned by root
 * or the approver and not writable by others (sticky excepted above the
 * folder itself), and the socket and key are the approver's. Throws one
 * clear sentence naming the path and what is wrong.
 */
export async function checkApproverFolder(folder: string, approver: Approver): Promise<void> {
  if (!isAbsolute(folder)) throw new Error(`the approval folder must be an absolute path, not ${folder}`);
  const who = (uid: number) => (uid === approver.uid ? `the approver ${approver.name}` : `uid ${uid}`);
  const target = resolve(folder);
  const parts = target.split(sep).filter(Boolean);
  let path = parse(target).root;
  const chain = [path, ...parts.map((p) => (path = join(path, p)))];
  for (const dir of chain) {
    const s = await lstat(dir).catch((e: NodeJS.ErrnoException) => {
      throw new Error(
        e.code === 'EACCES'
          ? `cannot look into ${dirname(dir)} (permission denied): ` +
              `this user must be in the group the approver shares ${target} with`
          : `${dir}: ${e.message}`,
      );
    });
    if (s.isSymbolicLink())
      throw new Error(
        `refusing the approval folder ${target}: ${dir} is a symlink (whoever can change it chooses the socket); ` +
          'give the real path',
      );
    if (!s.isDirectory()) throw new Error(`refusing the approval folder ${target}: ${dir} is not a folder`);
    if (s.uid !== 0 && s.uid !== approver.uid)
      throw new Error(
        `refusing the approval folder ${target}: ${dir} belongs to ${who(s.uid)}, ` +
          `not to ${approver.uid === 0 ? 'root' : `${approver.name} or root`}`,
      );
    const last = dir === target;
    const writableByOthers = (s.mode & 0o022) !== 0;
    const sticky = (s.mode & 0o1000) !== 0;
    if (writableByOthers && (last || !sticky))
      throw new Error(
        `refusing the approval folder ${target}: ` +
          `${dir} is writable by ${s.mode & 0o002 ? 'every user' : 'its group'} ` +
          `(mode ${(s.mode & 0o7777).toString(8)}), ` +
          `so someone other than ${approver.name} could have put the socket there`,
      );
    if (last && s.uid !== approver.uid)
      throw new Error(`refusing the approval folder ${target}: it belongs to ${who(s.uid)}, not to ${approver.name}`);
  }
  for (const [name, kind] of [
    ['approval.sock', 'socket'],
    ['approval.token', 'file'],
  ] as const) {
    const file = join(target, name);
    const s = await lstat(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new ApproverAppNotRunning(file);
      throw new Error(`${file}: ${e.message}`);
    });
    if (kind === 'socket' ? !s.isSocket() : !s.isFile())
      throw new Error(`refusing ${file}: it is not a ${kind === 'socket' ? 'socket' : 'regular file'}`);
    if (s.uid !== approver.uid)
      throw new Error(
        `refusing ${file}: it belongs to ${who(s.uid)}, not to the approver ${approver.name}, ` +
          `so ${approver.name}'s Countersign app did not make it`,
      );
  }
}

/** The approver's app is not serving in the folder (nothing is there yet). */
export class ApproverAppNotRunning extends Error {
  constructor(readonly path: string) {
    super(`${path} does not exist`);
  }
}
