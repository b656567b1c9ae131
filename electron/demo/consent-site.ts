// The demo server's own "calendar provider": a tiny page on 127.0.0.1 that
// a URL-mode question points to. The user opens it in the system browser
// and presses "Authorize"; the consent is recorded here, in the demo
// process, where the host cannot see it — exactly the out-of-band flow URL
// mode exists for. Started lazily on the first request and unref'd, so it
// never keeps the demo process alive after the host closes stdin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the page has seen of one consent request. */
export interface ConsentStatus {
  visited: boolean;
  authorized: boolean;
}

interface Session extends ConsentStatus {
  purpose: string;
  /** Proves the authorize POST came from the page that was shown. */
  nonce: string;
  expiresAt: number;
  waiters: Set<() => void>;
}

const SESSION_TTL_MS = 15 * 60_000;
const MAX_SESSIONS = 200;
const MAX_BODY = 4096;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const token = () => randomBytes(18).toString('base64url');

/** The loopback consent pages of one demo process. */
export class ConsentSite {
  private readonly sessions = new Map<string, Session>();
  private server?: Server;
  private origin?: Promise<string>;
  private base = '';

  /** Start a consent request; returns the page URL to send in a URL-mode question. */
  async create(purpose: string): Promise<{ id: string; url: string }> {
    const origin = await this.start();
    this.prune();
    const id = token();
    this.sessions.set(id, {
      purpose,
      nonce: token(),
      visited: false,
      authorized: false,
      expiresAt: Date.now() + SESSION_TTL_MS,
      waiters: new Set(),
    });
    return { id, url: `${origin}/consent/${id}` };
  }

  /** The page URL of an existing request. */
  urlOf(id: string): string {
    return `${this.base}/consent/${id}`;
  }

  /** What the page saw; undefined for an unknown or expired request. */
  status(id: string): ConsentStatus | undefined {
    const s = this.sessions.get(id);
    if (!s || s.expiresAt < Date.now()) return undefined;
    return { visited: s.visited, authorized: s.authorized };
  }

  /** Resolves true once the request is authorized, false after `ms` or when it is unknown; aborts with `signal`. */
  waitForAuthorization(id: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    const s = this.sessions.get(id);
    if (!s) return Promise.resolve(false);
    if (s.authorized) return Promise.resolve(true);
    if (ms <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        s.waiters.delete(onAuthorized);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAuthorized = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      s.waiters.add(onAuthorized);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stop serving (process shutdown). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.origin = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private start(): Promise<string> {
    if (!this.origin) {
      const server = createServer((req, res) => this.handle(req, res));
      server.keepAliveTimeout = 2000;
      this.server = server;
      this.origin = new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        // An address, never the name "localhost": what resolves is not ours to decide.
        server.listen(0, '127.0.0.1', () => {
          server.unref();
          this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve(this.base);
        });
      });
    }
    return this.origin;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) if (s.expiresAt < now) this.sessions.delete(id);
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const port = (this.server?.address() as AddressInfo | null)?.port;
    // DNS-rebinding defence: a page on another name that resolves here is refused.
    if (req.headers.host !== `127.0.0.1:${port}`) return send(res, 403, 'Forbidden', '<p>Wrong host.</p>');
    const match = /^\/consent\/([A-Za-z0-9_-]{24})(\/authorize)?$/.exec(req.url ?? '');
    const session = match ? this.sessions.get(match[1]!) : undefined;
    if (!match || !session || session.expiresAt < Date.now())
      return send(res, 404, 'Not found', '<p>This consent request is unknown or has expired.</p>');
    const id = match[1]!;
    if (!match[2] && (req.method === 'GET' || req.method === 'HEAD')) {
      session.visited = true;
      return send(res, 200, 'Demo Calendar: authorize Countersign', consentPage(id, session));
    }
    if (match[2] && req.method === 'POST') {
      void readBody(req).then(
        (body) => {
          const nonce = new URLSearchParams(body).get('nonce') ?? '';
          if (!session.visited || !sameSecret(nonce, session.nonce))
            return send(res, 403, 'Forbidden', '<p>Open the consent page first, then press Authorize.</p>');
          session.authorized = true;
          for (const w of [...session.waiters]) w();
          return send(
            res,
            200,
            'Authorized',
            '<h1>Authorized</h1><p>The demo calendar is connected. ' +
              'You can close this tab and go back to Countersign.</p>',
          );
        },
        () => send(res, 413, 'Too large', '<p>Request too large.</p>'),
      );
      return;
    }
    res.setHeader('Allow', match[2] ? 'POST' : 'GET, HEAD');
    send(res, 405, 'Method not allowed', '<p>Method not allowed.</p>');
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function consentPage(id: string, s: Session): string {
  return `<h1>Demo Calendar</h1>
<p><strong>Countersign (demo)</strong> asks to ${escapeHtml(s.purpose)}.</p>
<p>This page is served by the demo MCP server on your own computer. Nothing leaves it.</p>
<form method="post" action="/consent/${id}/authorize">
<input type="hidden" name="nonce" value="${s.nonce}">
<button type="submit">Authorize</button>
</form>`;
}

function send(res: ServerResponse, status: number, title: string, body: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}` +
    `button{font:inherit;padding:.5rem 1.5rem}</style></head>
<body>${body}</body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  res.end(html);
}
