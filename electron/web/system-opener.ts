// Opens a link in the system browser from a Node process (the web shell and
// the headless CLI; Electron opens the same launcher page with shell.openPath).
// The opener is given ONE argument, the path of a private launcher page that
// forwards to the link (../core/links/launcher-file.ts): never the link
// itself, which every user could read in its argv. No shell ever parses it.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { openLinkThroughLauncher, type OpenedLink } from '../core/links/launcher-file';

/** The program and arguments that open `target` (a file path) on `platform`. */
export function systemOpenerCommand(
  target: string,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [target] };
  if (platform === 'win32') {
    // Not `cmd /c start "" <path>`: cmd expands %NAME% even inside quotes
    // and "&" splits commands. rundll32 hands it to the registered handler
    // without any command interpreter.
    return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', target] };
  }
  return { command: 'xdg-open', args: [target] };
}

/**
 * How long to wait for the opener's exit code. xdg-open and friends hand the
 * link over and exit at once; one that fails (no desktop session) exits
 * non-zero, and the user must be told the link did not open. One still
 * running after this is taken as having opened it.
 */
const OPENER_VERDICT_MS = 3_000;

/** Runs an opener (one argument list, no shell) and waits for its verdict; exported for its test. */
export function runOpener(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (error) => reject(new Error(`cannot open the link with ${command}: ${error.message}`)));
    child.once('spawn', () => {
      const timer = setTimeout(() => {
        child.unref();
        resolve();
      }, OPENER_VERDICT_MS);
      timer.unref();
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else
          reject(
            new Error(`${command} could not open it (${code !== null ? `exit code ${code}` : `signal ${signal}`})`),
          );
      });
    });
  });
}

/**
 * Open `url` in the system browser through a launcher page (checked by the one
 * URL rule first); resolves once the opener started, rejects if it cannot be
 * run. Closing the result removes the page.
 */
export function openWithSystem(url: string, platform: NodeJS.Platform = process.platform): Promise<OpenedLink> {
  return openLinkThroughLauncher(url, (path) => openFileWithSystem(path, platform));
}

/**
 * Open a local page the app wrote (a launcher page) with the system's
 * handler for it, the default browser for .html. Only an absolute path to an
 * existing regular file is accepted; the path, unlike a token URL, is no secret.
 */
export async function openFileWithSystem(path: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (!isAbsolute(path) || !statSync(path, { throwIfNoEntry: false })?.isFile())
    throw new Error(`refusing to open ${JSON.stringify(path.slice(0, 200))}: not an existing file`);
  const { command, args } = systemOpenerCommand(path, platform);
  return runOpener(command, args);
}
