// Node flags that keep SIGUSR1 from opening an inspector in a Node process
// Countersign starts (a demo server, `countersign web` started by the
// gateway). On plain Node the signal opens 127.0.0.1:9229 to every local
// user, and an inspector is code execution as you. A listener in the child's
// own code comes too late: Node takes the signal from the moment its own
// handler is installed (tens of milliseconds in) until the first line of
// JavaScript runs, which under load was measured at 0.6 s and more. A flag
// on the command line closes it from the start:
// - `--disable-sigusr1` where this Node has it (22.14 and later), detected
//   from process.allowedNodeEnvironmentFlags, never assumed from a version;
// - otherwise `--inspect-port` at an address no machine has (192.0.2.1,
//   TEST-NET-1, RFC 5737): the signal still starts the inspector, but it
//   cannot listen anywhere ("Starting inspector on 192.0.2.1:9229 failed").
// Electron's binary (ELECTRON_RUN_AS_NODE) is left as it is: its
// nodeCliInspect fuse is off. Windows has no SIGUSR1.

/** Where a SIGUSR1-started inspector would listen: an address no machine has, so it never does. */
export const UNBINDABLE_INSPECTOR = '192.0.2.1:9229';

/** The flags for a child run by this process's own Node binary (`process.execPath`). */
export function noInspectorFlags(
  allowed: ReadonlySet<string> = process.allowedNodeEnvironmentFlags,
  runtime: { platform: NodeJS.Platform; electron?: string } = {
    platform: process.platform,
    ...(process.versions.electron ? { electron: process.versions.electron } : {}),
  },
): string[] {
  if (runtime.platform === 'win32' || runtime.electron !== undefined) return [];
  if (allowed.has('--disable-sigusr1')) return ['--disable-sigusr1'];
  return [`--inspect-port=${UNBINDABLE_INSPECTOR}`];
}
