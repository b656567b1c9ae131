// App documents waiting to be loaded by their frame. Each is served once from
// the app origin (the web shell's loopback port, electron/web/app-origin.ts;
// the desktop's app://mcp-apps, electron/main/app-frames.ts) under an
// unguessable id and then forgotten: a reload, another tab or a copied address
// gets nothing. Both origins answer the same way, with the headers below.
import { randomBytes } from 'node:crypto';

/** The path documents are served under on either origin; the id follows. */
export const APP_DOCUMENT_PATH = '/app/';

/** The document id a request path names (22 URL-safe characters after /app/), or undefined. */
export function documentIdOf(pathname: string): string | undefined {
  if (!pathname.startsWith(APP_DOCUMENT_PATH)) return undefined;
  const id = pathname.slice(APP_DOCUMENT_PATH.length);
  return /^[A-Za-z0-9_-]{22}$/.test(id) ? id : undefined;
}

/** One document: the HTML and the policy it is served with. */
export interface AppDocument {
  html: string;
  contentSecurityPolicy: string;
}

/** Documents published but not yet loaded, at most this many (the oldest goes first). */
const MAX_WAITING = 16;

/** The store between publishing (the host) and serving (the app origin). */
export class AppDocuments {
  private readonly waiting = new Map<string, AppDocument>();

  /** Keep a document; returns its id (128 random bits, URL-safe). */
  publish(doc: AppDocument): string {
    const id = randomBytes(16).toString('base64url');
    this.waiting.set(id, doc);
    if (this.waiting.size > MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value!);
    return id;
  }

  /** The document, once: it is gone after this. */
  take(id: string): AppDocument | undefined {
    const doc = this.waiting.get(id);
    this.waiting.delete(id);
    return doc;
  }
}

/** The response headers of a served document: its own policy, and nothing to sniff, cache, refer or hold. */
export function appDocumentHeaders(doc: AppDocument): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(doc.html)),
    'Content-Security-Policy': doc.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    // The app cannot hold a reference to a window it opens, nor be held by one.
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
