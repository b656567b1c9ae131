// How a link reaches the browser without ever sitting in a process's argv or
// environment. /proc/PID/cmdline is readable by every user on the machine, so
// `xdg-open <url>` would hand the web shell's token, a sign-in's `state` and
// PKCE challenge, or a URL question's session id to anyone on it (and a
// browser keeps its argv for as long as it runs; on Linux Electron's
// shell.openExternal also ends in `xdg-open <url>`). Instead the link is
// written into a small HTML page, 0600 in a fresh 0700 folder, and the opener
// is given only that file's path. The page forwards to the link (a fragment
// such as the web shell's #token=… never reaches a server's request line).
// Every page is removed once it has done its job (the web shell's when a tab
// came in with the token, a sign-in's when the redirect came or the sign-in
// ended), a link's page at the latest after LINK_LAUNCHER_LIFETIME_MS, and
// all of them at exit.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExternalUrl } from '../../../shared/url/external-url';
import { ensurePrivateDir, writePrivateFile } from '../storage/private-files';

/** A launcher page on disk. */
export interface LauncherFile {
  /** Absolute path of the page: what the browser opener is given. */
  path: string;
  /** Delete the page and its folder (idempotent). */
  remove(): Promise<void>;
}

/** A link handed to the system: `close` removes its launcher page now (idempotent). */
export interface OpenedLink {
  close(): Promise<void>;
}

/** Opens a local file (the launcher page) with the system's handler for it: the default browser for .html. */
export type FileOpener = (path: string) => Promise<void>;

/**
 * How long a link's launcher page is kept when nothing says it is done: long
 * enough for a browser to start cold and read it; the browser does not need
 * it once it has navigated away.
 */
export const LINK_LAUNCHER_LIFETIME_MS = 2 * 60_000;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The launcher page for `url`; `label` names where it leads. */
export function launcherHtml(url: string, label = 'Open Countersign'): string {
  const href = escapeHtml(url);
  // No script: a meta refresh works with JavaScript off and under any file:// policy;
  // the link is there for a browser that refuses refreshes. No referrer: the
  // page's own address (a private path) is not sent to where the link leads.
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0; url=${href}">`,
    '<title>Countersign: opening…</title></head>',
    `<body><p><a href="${href}" rel="noreferrer">${escapeHtml(label)}</a></p></body></html>`,
    '',
  ].join('\n');
}

/** Folders of pages not yet removed: removed synchronously when the process exits. */
const live = new Set<string>();
let exitHookInstalled = false;
function track(dir: string): void {
  live.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const d of live) rmSync(d, { recursive: true, force: true });
  });
}

/** Remove every launcher page this process still has (Electron's will-quit; Node processes also at 'exit'). */
export async function removeLauncherFiles(): Promise<void> {
  await Promise.all([...live].map((d) => rm(d, { recursive: true, force: true }).finally(() => live.delete(d))));
}

/**
 * Write a launcher page for `url` in a new private folder under `parent`
 * (default: the system temp folder; mkdtemp makes the name unpredictable and
 * the folder 0700, and ensurePrivateDir checks it is ours).
 */
export async function writeLauncherFile(url: string, parent: string = tmpdir(), label?: string): Promise<LauncherFile> {
  const dir = await mkdtemp(join(parent, 'countersign-open-'));
  track(dir);
  let removing: Promise<void> | undefined;
  const remove = () =>
    (removing ??= rm(dir, { recursive: true, force: true }).finally(() => {
      live.delete(dir);
    }));
  try {
    await ensurePrivateDir(dir);
    const path = join(dir, 'open-countersign.html');
    await writePrivateFile(path, launcherHtml(url, label));
    return { path, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}

/**
 * Open `url` in the browser through a launcher page: the one URL rule
 * (shared/url/external-url.ts) is applied here, in the host process, before
 * anything is written; `openFile` is given only the page's path. The page is
 * removed when the returned link is closed, after `lifetimeMs`, or at exit.
 */
export async function openLinkThroughLauncher(
  url: string,
  openFile: FileOpener,
  options: { parent?: string; lifetimeMs?: number } = {},
): Promise<OpenedLink> {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) throw new Error(`refusing to open ${JSON.stringify(String(url).slice(0, 200))}: ${verdict.reason}`);
  const launcher = await writeLauncherFile(verdict.href, options.parent, 'Continue');
  try {
    await openFile(launcher.path);
  } catch (e) {
    await launcher.remove();
    throw e;
  }
  const timer = setTimeout(() => void launcher.remove(), options.lifetimeMs ?? LINK_LAUNCHER_LIFETIME_MS);
  timer.unref();
  return {
    close: () => {
      clearTimeout(timer);
      return launcher.remove();
    },
  };
}
