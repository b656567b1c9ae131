// Shared setup for the web shell tests: a real HostService in a temp data
// folder, with the shipped demo server as its only servers, and a tiny
// stand-in renderer build. The one thing replaced is the system browser:
// openExternal records the URLs it was asked to open (the system boundary).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { isStdioEntry, type ServerEntry } from '../../electron/core/config/server-config';
import { HostService } from '../../electron/core/service/host-service';
import { demoServers } from '../../electron/demo/demo-servers';

export const SECRET = 'TOP-SECRET-OUTSIDE-THE-RENDERER';

/** A renderer folder with a page, a script, a style, a hidden file and a symlink that leads out. */
export function makeRendererDir(): { root: string; rendererDir: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'countersign-web-'));
  const rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>Countersign</title><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(rendererDir, '.env'), SECRET);
  writeFileSync(join(root, 'secret.txt'), SECRET);
  symlinkSync(join(root, 'secret.txt'), join(rendererDir, 'assets', 'leak.txt'));
  return { root, rendererDir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The demo entries with a short "wait for the browser" in the modern URL flow. */
export function demoEntries(): Record<string, ServerEntry> {
  const entries = demoServers();
  for (const entry of Object.values(entries))
    if (isStdioEntry(entry)) entry.env = { ...entry.env, COUNTERSIGN_DEMO_URL_WAIT_MS: '300' };
  return entries;
}

/** A HostService over a fresh data folder; `opened` records openExternal calls. */
export async function startService(): Promise<{
  service: HostService;
  opened: string[];
  dataDir: string;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-data-'));
  const opened: string[] = [];
  const service = await HostService.create({
    dataDir,
    openExternal: async (url) => {
      opened.push(url);
    },
    firstStartServers: demoEntries(),
  });
  service.log = () => undefined;
  return {
    service,
    opened,
    dataDir,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Plays the user on the demo's consent page: open it, press "Authorize". */
export async function authorizeInBrowser(url: string): Promise<void> {
  const html = await (await fetch(url)).text();
  const nonce = /name="nonce" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const res = await fetch(`${url}/authorize`, { method: 'POST', body: new URLSearchParams({ nonce }) });
  if (res.status !== 200) throw new Error(`authorize failed: ${res.status}`);
}

/** The port and token from the shell's printed URL. */
export function parseShellUrl(url: string): { port: number; token: string } {
  const m = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43})$/.exec(url);
  if (!m) throw new Error(`unexpected shell URL ${url}`);
  return { port: Number(m[1]), token: m[2]! };
}

/** A `ws` constructor that behaves like a page on `origin` (browsers always send Origin). */
export function browserLikeWebSocket(origin: string) {
  return class extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { origin });
    }
  };
}

/** Resolves once `predicate` holds, polling; rejects with `what` after `ms`. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
