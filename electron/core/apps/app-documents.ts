// App documents waiting to be loaded by their frame. Each is served once from
// the app origin (electron/web/app-origin.ts) under an unguessable id and then
// forgotten: a reload, another tab or a copied address gets nothing.
import { randomBytes } from 'node:crypto';

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
