// Who can read a secret in a process's argv or environment: /proc/PID/cmdline
// is readable by every user on the machine, /proc/PID/environ by the
// process's owner (and root). Tests that claim "nowhere on the machine" scan
// both, as this user and as a second user.
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAs, type OtherUser } from './other-user';

/** Every process whose argv or environment contains `secret`, as this user can read them: "pid (where): argv". */
export function processesHolding(secret: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    for (const part of ['cmdline', 'environ'] as const) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/${part}`, 'latin1');
      } catch {
        continue; // gone, or not ours to read (then not root)
      }
      if (text.includes(secret)) found.push(`${pid} (${part}): ${readFileSync(`/proc/${pid}/cmdline`, 'latin1')}`);
    }
  }
  return found;
}

/**
 * The /proc files (every process's cmdline and environ) in which `user` finds
 * any of `secrets`. The secrets reach the scan in a file in `scratch` (a
 * folder that user can enter), never in the scanner's own argv.
 */
export function seenByOtherUser(user: OtherUser, secrets: string[], scratch: string): string[] {
  const patterns = join(scratch, `patterns-${process.pid}-${Date.now()}`);
  writeFileSync(patterns, `${secrets.join('\n')}\n`);
  chmodSync(patterns, 0o644);
  const scan = runAs(user, 'sh', [
    '-c',
    'grep -l -a -F -f "$0" /proc/[0-9]*/cmdline /proc/[0-9]*/environ 2>/dev/null; exit 0',
    patterns,
  ]);
  if (scan.status !== 0) throw new Error(`the scan as ${user.name} failed: ${scan.stderr}`);
  return scan.stdout.split('\n').filter(Boolean);
}
