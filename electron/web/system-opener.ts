// Opens a link in the system browser from a Node process (the web shell and
// the headless CLI; Electron uses shell.openExternal). The URL is passed as
// ONE argument to the platform's opener and no shell ever parses it, so a
// server-chosen link cannot smuggle in a second command.
import { spawn } from 'node:child_process';

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

/** Only web links leave through here; everything else is refused. */
function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`refusing to open an invalid URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`refusing to open a ${parsed.protocol} link; only http and https are opened`);
  // The serialised form: percent-encoded, no quotes, no whitespace, no control characters.
  return parsed.href;
}

/** Open `url` in the system browser; resolves once the opener started, rejects if it cannot be run. */
export async function openWithSystem(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { command, args } = systemOpenerCommand(checkedUrl(url), platform);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (error) => reject(new Error(`cannot open the link with ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
