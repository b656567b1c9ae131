// The web shell's second origin, where MCP App documents are served: another
// port on 127.0.0.1, so an app is cross-origin to the renderer even before
// its frame's sandbox makes it opaque. It serves each published document once
// (core/apps/app-documents.ts), with the policy built from the resource's own
// declarations, framable only by the shell's page, and nothing else: no
// renderer files, no API, no token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appDocumentHeaders, documentIdOf, type AppDocuments } from '../core/apps/app-documents';

/** A running app origin. */
export interface AppOriginServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  close(): Promise<void>;
}

function refuse(res: import('node:http').ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${text}\n`);
}

/** Listen on a free loopback port and serve `documents` there. */
export async function startAppOrigin(documents: AppDocuments): Promise<AppOriginServer> {
  let host = '';
  const server: Server = createServer((req, res) => {
    // DNS rebinding: only this exact address may be asked for.
    if (req.headers.host !== host) return refuse(res, 403, 'wrong Host header');
    if (req.method !== 'GET') return refuse(res, 405, 'method not allowed');
    const id = documentIdOf((req.url ?? '').split('?')[0] ?? '');
    const doc = id ? documents.take(id) : undefined;
    if (!doc) return refuse(res, 404, 'no such app document');
    res.writeHead(200, appDocumentHeaders(doc));
    res.end(doc.html);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      done();
    });
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  return {
    origin: `http://${host}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
