// The renderer is served from a private `app://countersign/` origin instead
// of file:// (Electron security checklist item 18): a file:// page can read
// other local files and has the opaque origin "null", while this handler
// serves only what is inside dist/renderer, with the CSP as a real header.
// Electron-free: main.ts wires `createAppRequestHandler` into protocol.handle.
import { CONTENT_TYPES } from '../../shared/content-types';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp';

/** The scheme the window loads from. */
export const APP_SCHEME = 'app';
/** The one host under that scheme; anything else is refused. */
export const APP_HOST = 'countersign';
/** The renderer's origin. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The URL the main window loads. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * Privileges for `protocol.registerSchemesAsPrivileged`. `standard` gives the
 * scheme a real origin (relative URLs, localStorage), `secure` makes it a
 * secure context, and `supportFetchAPI` + `corsEnabled` let Chromium load the
 * module scripts Vite emits (`<script type="module" crossorigin>` is a CORS
 * request even to its own origin). Not `bypassCSP`: the CSP must apply.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
} as const;

/** The Content-Type for a file name; unknown kinds are opaque bytes (and `nosniff` keeps them so). */
export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** True when `url` is inside the app's own origin. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Where an app:// request leads: a file under the root, or an HTTP status to answer with. */
export type AppRequestTarget = { ok: true; path: string; contentType: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * Maps an app:// URL to a file under `root`, refusing other hosts, encoded
 * separators and anything that would climb out of `root`.
 */
export function resolveAppRequest(url: string, root: string): AppRequestTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, status: 400 };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { ok: false, status: 403 };
  const segments: string[] = [];
  for (const raw of parsed.pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400 };
    }
    // The URL parser already folded "." and ".."; whatever is left encoded is an attack, not a file name.
    if (segment === '.' || segment === '..' || /[\\/\0]/.test(segment) || segment.includes(':'))
      return { ok: false, status: 403 };
    segments.push(segment);
  }
  if (segments.length === 0) segments.push('index.html');
  const path = join(root, ...segments);
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..'))
    return { ok: false, status: 403 };
  return { ok: true, path, contentType: contentTypeFor(path) };
}

/** Headers on every app:// response: the CSP, no MIME sniffing, no cross-origin embedding. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

/** Reads a file's bytes; injectable so tests need no disk. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

/** The protocol.handle callback: GET/HEAD of files under `root`, nothing else. */
export function createAppRequestHandler(
  root: string,
  readFile: ReadFile,
): (request: { url: string; method: string }) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
    }
    const target = resolveAppRequest(request.url, root);
    if (!target.ok) return new Response(null, { status: target.status });
    let body: Uint8Array;
    try {
      body = await readFile(target.path);
    } catch {
      return new Response(null, { status: 404 });
    }
    // Node's Buffers sit on plain ArrayBuffers; TypeScript's DOM types cannot know that.
    return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers: appResponseHeaders(target.contentType),
    });
  };
}
