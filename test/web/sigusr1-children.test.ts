// The Node processes Countersign starts itself (a demo server; `countersign
// web` when the gateway starts the app) carry a flag that keeps SIGUSR1 from
// opening an inspector from their first instant (electron/core/no-inspector.ts).
// A listener in their own code comes too late: the signal is taken from the
// moment Node installs its handler until the first line of JavaScript runs.
// Each process gets one SIGUSR1, from right after spawn (no delay) to well
// into its start; none may open the inspector.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { noInspectorFlags, UNBINDABLE_INSPECTOR } from '../../electron/core/no-inspector';
import { demoLaunch } from '../../electron/demo/demo-servers';

/** Delays (ms) after spawn at which the one signal is sent: no delay first. */
const DELAYS = [0, 100, 200, 400, 800];

interface Outcome {
  delay: number;
  opened: boolean;
  /** Still running after the signal (the signal was taken by a handler, not the default action). */
  survived: boolean;
}

function signalledAt(command: string, args: string[], env: NodeJS.ProcessEnv, delay: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const send = () => child.kill('SIGUSR1');
    if (delay === 0) send();
    else setTimeout(send, delay);
    // Long enough for an inspector started by the signal to say so.
    setTimeout(() => {
      const survived = child.exitCode === null && child.signalCode === null;
      child.kill('SIGKILL');
      resolve({ delay, opened: /Debugger listening/.test(err), survived });
    }, delay + 1_500);
  });
}

describe.skipIf(process.platform !== 'linux')('SIGUSR1 in the Node processes Countersign starts', () => {
  it('the flag: --disable-sigusr1 where Node has it, else an inspector port that cannot be bound', () => {
    const linux = { platform: 'linux' as const };
    expect(noInspectorFlags(new Set(['--disable-sigusr1', '--inspect-port']), linux)).toEqual(['--disable-sigusr1']);
    expect(noInspectorFlags(new Set(['--inspect-port']), linux)).toEqual([`--inspect-port=${UNBINDABLE_INSPECTOR}`]);
    expect(noInspectorFlags(new Set(), { platform: 'linux', electron: '39.0.0' })).toEqual([]);
  });

  it('a demo server signalled right after spawn, and later in its start, opens no inspector', async () => {
    const launch = demoLaunch()!;
    const outcomes: Outcome[] = [];
    for (const delay of DELAYS) outcomes.push(await signalledAt(launch.command, launch.args, launch.env ?? {}, delay));
    expect(outcomes.filter((o) => o.opened)).toEqual([]);
    // Not vacuous: some signals were taken by Node's handler (a process killed by the first one proves nothing).
    expect(outcomes.some((o) => o.survived)).toBe(true);
  }, 60_000);
});
