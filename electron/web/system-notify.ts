// A desktop notification from a Node process (the web shell), where the
// system has a way: notify-send (libnotify) on Linux and the BSDs, osascript
// on macOS. Best effort: no notifier, no session bus, or a failing one is
// logged and otherwise ignored. The text is passed as arguments, never
// through a shell, and must hold no secret: other users can read any
// process's argv.
import { spawn } from 'node:child_process';

/** The program and arguments that show a notification on `platform`, or undefined when there is none. */
export function notifierCommand(
  title: string,
  body: string,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } | undefined {
  if (platform === 'win32') return undefined;
  if (platform === 'darwin') {
    const quoted = (t: string) => JSON.stringify(t); // AppleScript string literals use the same escapes
    return { command: 'osascript', args: ['-e', `display notification ${quoted(body)} with title ${quoted(title)}`] };
  }
  return { command: 'notify-send', args: ['--app-name=Countersign', '--urgency=critical', '--', title, body] };
}

/** Show a notification; resolves true when the notifier ran and exited 0. */
export function notifySystem(
  title: string,
  body: string,
  log: (line: string) => void = () => undefined,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const cmd = notifierCommand(title, body, platform);
  if (!cmd) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(cmd.command, cmd.args, { shell: false, stdio: 'ignore', windowsHide: true });
    child.once('error', (e) => {
      log(`countersign web: no desktop notification (${cmd.command}: ${e.message})`);
      resolve(false);
    });
    child.once('exit', (code) => {
      if (code !== 0) log(`countersign web: no desktop notification (${cmd.command} exited with code ${code})`);
      resolve(code === 0);
    });
  });
}
