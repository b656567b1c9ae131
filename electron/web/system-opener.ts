// Opens a link in the system browser from a Node process (the web shell and
// the headless CLI; Electron uses shell.openExternal). The URL is passed as
// ONE argument to the platform's opener and no shell ever parses it, so a
// server-chosen link cannot smuggle in a second command.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { checkExternalUrl } from '../../shared/url/external-url';

/** The program and arguments that open `url` on `platform`. */
export function systemOpenerCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') {
    // Not `cmd /c start "" <url>`: cmd expands %NAME% even inside quotes,
    // so a link like https://x.example/?u=%USERNAME% would leak the value
    // to the server, and "&" splits commands. rundll32 hands the URL to the
    // registered protocol handler without any command interpreter.
    return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] };
  }
  return { command: 'xdg-open', args: [url] };
}

/** Only links the one URL rule allows leave through here (the same rule as Electron's openExternal gate). */
function checkedUrl(url: string): string {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) throw new Error(`refusing to open ${JSON.stringify(url.slice(0, 200))}: ${verdict.reason}`);
  return verdict.href;
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

/** Open `url` in the system browser; resolves once the opener started, rejects if it cannot be run. */
export async function openWithSystem(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { command, args } = systemOpenerCommand(checkedUrl(url), platform);
  return runOpener(command, args);
}

/**
 * Open a local page the app wrote (the web shell's launcher) with the system's
 * handler for it, the default browser for .html. Only an absolute path to an
 * existing regular file is accepted; the path, unlike a token URL, is no secret.
 */
export async function openFileWithSystem(path: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (!isAbsolute(path) || !statSync(path, { throwIfNoEntry: false })?.isFile())
    throw new Error(`refusing to open ${JSON.stringify(path.slice(0, 200))}: not an existing file`);
  const { command, args } = systemOpenerCommand(path, platform);
  return runOpener(command, args);
}
