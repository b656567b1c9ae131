// How the browser gets the web shell's token without it ever sitting in a
// process's argv or environment: /proc/PID/cmdline is readable by every user,
// so `xdg-open http://…/#token=…` would hand the session to anyone on the
// machine (and the browser keeps its argv for as long as it runs). Instead the
// shell writes a small HTML page, 0600 in a fresh 0700 folder, and the opener
// is given only that file's path. The page forwards to the shell's address
// with the token in the fragment (which never reaches the server's request
// line); the app then drops it from the address bar (history.replaceState).
// The file is removed once a tab has come in with the token, and at close.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../core/storage/private-files';

/** A launcher page on disk. */
export interface LauncherFile {
  /** Absolute path of the page: what the browser opener is given. */
  path: string;
  /** Delete the page and its folder (idempotent). */
  remove(): Promise<void>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The launcher page for `url` (the shell's address with #token=…). */
export function launcherHtml(url: string): string {
  const href = escapeHtml(url);
  // No script: a meta refresh works with JavaScript off and under any file:// policy;
  // the link is there for a browser that refuses refreshes.
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0; url=${href}">`,
    '<title>Opening Countersign…</title></head>',
    `<body><p><a href="${href}" rel="noreferrer">Open Countersign</a></p></body></html>`,
    '',
  ].join('\n');
}

/**
 * Write a launcher page for `url` in a new private folder under `parent`
 * (default: the system temp folder; mkdtemp makes the name unpredictable and
 * the folder 0700, and ensurePrivateDir checks it is ours).
 */
export async function writeLauncherFile(url: string, parent: string = tmpdir()): Promise<LauncherFile> {
  const dir = await mkdtemp(join(parent, 'countersign-open-'));
  await ensurePrivateDir(dir);
  const path = join(dir, 'open-countersign.html');
  await writePrivateFile(path, launcherHtml(url));
  let removing: Promise<void> | undefined;
  return {
    path,
    remove: () => (removing ??= rm(dir, { recursive: true, force: true })),
  };
}
