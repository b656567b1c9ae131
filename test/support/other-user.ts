// A second OS user for tests that claim a boundary between users. Sessions and
// CI run as root, so a system user can be created and a command run as it with
// setpriv; elsewhere the caller skips with the reason returned here.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';

/** A user other than the one running the tests. */
export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
}

const NAME = 'cs-agent';

function lookup(name: string): OtherUser | undefined {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    return { name, uid, gid };
  } catch {
    return undefined;
  }
}

/** The second user, created if needed; a string says why there is none. */
export function otherUser(): OtherUser | string {
  if (process.platform === 'win32') return 'no setpriv on Windows';
  if (process.getuid?.() !== 0) return 'creating and becoming a second user needs root (run as root, as CI does)';
  if (spawnSync('setpriv', ['--version']).status !== 0) return 'setpriv (util-linux) is not installed';
  let user = lookup(NAME);
  if (!user) {
    // Another test may create it at the same moment: "already exists" is fine.
    spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME]);
    user = lookup(NAME);
  }
  return user ?? `could not create the user ${NAME} (useradd failed)`;
}

/** Run `command` as `user`, with no supplementary groups. */
export function runAs(user: OtherUser, command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(
    'setpriv',
    ['--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups', '--', command, ...args],
    { encoding: 'utf8' },
  );
}
