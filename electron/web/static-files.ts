// Serves the built renderer, and nothing else, from one folder. Every
// response carries the same strict security headers; the page may load
// scripts and styles only from itself and talk only to this shell's socket.
import { CONTENT_TYPES } from '../../shared/content-types';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { contentSecurityPolicy } from '../../shared/csp';

/** The content type for a file name (unknown types are served as opaque bytes). */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Headers every response of the shell carries. */
export function securityHeaders(origin: string, appOrigin?: string): Record<string, string> {
  const wsOrigin = origin.replace(/^http:/, 'ws:');
  return {
    // The one renderer policy (shared/csp.ts); the page may reach only this shell's own socket, and frame only
    // the app origin's documents.
    'Content-Security-Policy': contentSecurityPolicy({
      connectSrc: [wsOrigin],
      ...(appOrigin ? { frameSrc: [appOrigin] } : {}),
    }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/** A plain-text reply with the security headers. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

function inside(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Map a request path to a file under `root`, or a status to refuse with.
 * `root` must be a real (symlink-free) absolute path.
 */
export async function resolveStaticPath(
  root: string,
  rawUrl: string,
): Promise<{ file: string } | { status: number; reason: string }> {
  const pathname = rawUrl.split(/[?#]/, 1)[0] ?? '/';
  // An encoded separator is never part of a real asset name: refuse it before decoding.
  if (/%(2f|5c)/i.test(pathname)) return { status: 400, reason: 'malformed path' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 400, reason: 'malformed path' };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\'))
    return { status: 400, reason: 'malformed path' };
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return { status: 403, reason: 'path traversal refused' };
  // Hidden files (.env, .git) are never part of a renderer build.
  if (segments.some((s) => s.startsWith('.'))) return { status: 404, reason: 'not found' };
  // The build also holds the test page with a fake host (harness.html and its
  // harness-* chunks): a page that answers questions without a human is never served.
  if (segments.some((s) => /^harness[.-]/.test(s))) return { status: 404, reason: 'not found' };
  const wanted = decoded === '/' ? '/index.html' : decoded;
  const file = resolve(root, `.${wanted}`);
  if (!inside(root, file)) return { status: 403, reason: 'path traversal refused' };
  try {
    // A symlink inside the folder must not lead out of it.
    const real = await realpath(file);
    if (!inside(root, real)) return { status: 403, reason: 'path traversal refused' };
    if (!(await stat(real)).isFile()) return { status: 404, reason: 'not found' };
    return { file: real };
  } catch {
    // Client-side routes (no file extension) get the app itself.
    if (extname(wanted) === '') return resolveStaticPath(root, '/');
    return { status: 404, reason: 'not found' };
  }
}

/** Answer a GET or HEAD for a static file. */
export async function serveStatic(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const found = await resolveStaticPath(root, req.url ?? '/');
  if ('status' in found) return sendText(res, found.status, found.reason, headers);
  const info = await stat(found.file);
  res.writeHead(200, { ...headers, 'Content-Type': contentTypeOf(found.file), 'Content-Length': String(info.size) });
  if (req.method === 'HEAD') return void res.end();
  const stream = createReadStream(found.file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
