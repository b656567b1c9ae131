// The loopback web shell: the whole app in a browser, for machines where
// Electron cannot run and for end-to-end tests. It serves the built renderer
// and the host API (over a WebSocket) on 127.0.0.1 only. Three checks stand
// between another local program or web page and the API:
//   - Host must be exactly 127.0.0.1:PORT (DNS rebinding: a foreign name
//     that resolves here is refused),
//   - the socket's Origin must be exactly http://127.0.0.1:PORT (other
//     pages in the user's browser cannot connect),
//   - the socket must present this run's random token (other local users
//     and programs cannot connect; the token is only in the printed URL and
//     in the private launcher page the browser is opened with, never in any
//     process's argv or environment: see core/links/launcher-file.ts).
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join, resolve } from 'node:path';
import { WebSocketServer } from 'ws';
import type { HostService } from '../core/service/host-service';
import { securityHeaders, sendText, serveStatic } from './static-files';
import { writeLauncherFile, type LauncherFile } from '../core/links/launcher-file';
import { openFileWithSystem } from './system-opener';
import { EXPORT_PATH, ExportDownloads } from './export-downloads';
import { newToken, sameToken } from './token';
import { API_PATH, MAX_FRAME_BYTES, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../shared/host-api/wire';
import { WsBridge } from './ws-bridge';
import { TabVisibility, type TabVisibilityOptions, type Visibility } from './tab-visibility';
import { stderrLog } from '../core/terminal-output';
import { startAppOrigin, type AppOriginServer } from './app-origin';
import { APP_DOCUMENT_PATH } from '../core/apps/app-documents';

/** Tabs that may be connected at once. */
const MAX_SOCKETS = 32;

export interface WebShellOptions {
  /** With streamHistoryExport, history exports become one-use download links (export-downloads.ts). */
  service: Pick<HostService, 'invoke' | 'on'> &
    Partial<Pick<HostService, 'streamHistoryExport' | 'exportLinks' | 'apps'>>;
  /** 0 or absent: a free port. */
  port?: number;
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  /** Open the app in the system browser once listening (through a private launcher page). */
  openBrowser?: boolean;
  /**
   * How the browser is opened (default: the system opener). It is given the
   * launcher page's file path, never the URL: the token must not reach argv.
   */
  opener?: (launcherPath: string) => Promise<void>;
  /** Where the launcher page's private folder is made (default: the system temp folder). */
  launcherParent?: string;
  /**
   * Reuse a token (at least 43 base64url characters) so tabs of a restarted
   * shell reconnect; by default every run makes a new one.
   */
  token?: string;
  /** Socket heartbeat (tests shorten it). */
  heartbeatMs?: number;
  /** How long a tab on its way is waited for before a question counts as unseen (tests shorten it). */
  visibility?: TabVisibilityOptions;
  log?: (line: string) => void;
}

export interface WebShell {
  /** http://127.0.0.1:PORT/#token=... — the only way in. */
  url: string;
  port: number;
  /** Where MCP App documents are served (electron/web/app-origin.ts), when the service shows apps. */
  appOrigin: string | undefined;
  /** The launcher page the browser was opened with, until a tab has come in with it (or the shell closed). */
  readonly launcherFile: string | undefined;
  /** Tabs connected now. */
  readonly tabs: number;
  /** Whether a question could be seen: a tab is connected (or on its way, waited for briefly). */
  whenVisible(signal?: AbortSignal): Promise<Visibility>;
  /** Stop serving and close every tab (the service stays open; its owner closes it). */
  close(): Promise<void>;
}

/** The token a WebSocket upgrade offers in Sec-WebSocket-Protocol, if any. */
function offeredToken(req: IncomingMessage): { token?: string; wire: boolean } {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const entry = offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
  return {
    ...(entry ? { token: entry.slice(TOKEN_PROTOCOL_PREFIX.length) } : {}),
    wire: offered.includes(WIRE_PROTOCOL),
  };
}

function refuseUpgrade(socket: Duplex, status: 400 | 403 | 404 | 503, reason: string): void {
  const text = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status];
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

/** Start the shell; resolves once it listens. */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const log = options.log ?? stderrLog;
  const rendererDir = resolve(options.rendererDir);
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `the renderer is not built: ${join(rendererDir, 'index.html')} does not exist (run "npx vite build" first)`,
    );
  }
  const root = await realpath(rendererDir);
  if (options.token !== undefined && !/^[A-Za-z0-9_-]{43,}$/.test(options.token))
    throw new Error('the web shell token must be at least 43 base64url characters');
  const token = options.token ?? newToken();
  const visibility = new TabVisibility(options.visibility);
  let launcher: LauncherFile | undefined;
  const dropLauncher = async () => {
    const current = launcher;
    launcher = undefined;
    await current?.remove().catch(() => undefined);
  };
  // History exports stream from one-use links instead of travelling as one string over the socket.
  const service = options.service;
  const downloads = service.streamHistoryExport
    ? new ExportDownloads({ streamHistoryExport: service.streamHistoryExport.bind(service) })
    : undefined;
  if (downloads) service.exportLinks = (filter, format) => downloads.issue(filter, format);
  let origin = '';
  let host = '';
  let headers: Record<string, string> = {};

  const server = createServer((req, res) => {
    if (req.headers.host !== host) return sendText(res, 403, 'wrong Host header', headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, 'method not allowed', headers);
    }
    if ((req.url ?? '').split('?')[0] === API_PATH) return sendText(res, 426, 'the API is a WebSocket', headers);
    if (downloads && (req.url ?? '').startsWith(EXPORT_PATH)) {
      return void downloads.serve(req, res, headers).catch(() => res.destroy());
    }
    serveStatic(root, req, res, headers).catch((error: Error) => {
      log(`countersign web: ${error.message}`);
      if (!res.headersSent) sendText(res, 500, 'internal error', headers);
      else res.destroy();
    });
  });
  // Slow or idle HTTP clients must not hold connections open.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    // Answer with the wire protocol, never echo the token.
    handleProtocols: () => WIRE_PROTOCOL,
  });
  const bridge = new WsBridge(options.service, {
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    log,
  });

  server.on('upgrade', (req, socket) => {
    socket.on('error', () => socket.destroy());
    if (req.headers.host !== host) return refuseUpgrade(socket, 403, 'wrong Host header');
    if (req.headers.origin !== origin) return refuseUpgrade(socket, 403, 'wrong Origin');
    if ((req.url ?? '').split('?')[0] !== API_PATH) return refuseUpgrade(socket, 404, 'no such socket');
    const offered = offeredToken(req);
    if (!offered.wire || offered.token === undefined || !sameToken(offered.token, token)) {
      log('countersign web: refused a socket without the right token');
      return refuseUpgrade(socket, 403, 'missing or wrong token');
    }
    if (bridge.size >= MAX_SOCKETS) return refuseUpgrade(socket, 503, 'too many tabs are connected');
    // The page has done its job: a tab came in with the token.
    void dropLauncher();
    wss.handleUpgrade(req, socket, Buffer.alloc(0), (ws) => {
      visibility.tabConnected();
      ws.once('close', () => visibility.tabClosed());
      bridge.add(ws);
    });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    // An address, never "localhost": the name may resolve to ::1 or elsewhere.
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'EADDRINUSE'
        ? `port ${options.port} on 127.0.0.1 is already in use (try --port 0 for a free one)`
        : `cannot listen on 127.0.0.1: ${error.message}`,
    );
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  // MCP Apps: their documents come from a second origin that only this page may frame.
  let appOrigin: AppOriginServer | undefined;
  if (service.apps) {
    appOrigin = await startAppOrigin(service.apps.documents);
    service.apps.origin = { documentBase: `${appOrigin.origin}${APP_DOCUMENT_PATH}`, frameAncestor: origin };
  }
  headers = securityHeaders(origin, appOrigin?.origin);
  const url = `${origin}/#token=${token}`;

  if (options.openBrowser) {
    try {
      visibility.opening();
      launcher = await writeLauncherFile(url, options.launcherParent);
      await (options.opener ?? openFileWithSystem)(launcher.path);
      visibility.opened();
    } catch (error) {
      visibility.openFailed((error as Error).message);
      await dropLauncher();
      log(`countersign web: could not open the browser (${(error as Error).message}); open the URL by hand`);
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    appOrigin: appOrigin?.origin,
    get launcherFile() {
      return launcher?.path;
    },
    get tabs() {
      return bridge.size;
    },
    whenVisible: (signal) => visibility.whenVisible(signal),
    close() {
      closing ??= Promise.all([
        dropLauncher(),
        appOrigin?.close(),
        new Promise<void>((done) => {
          bridge.close();
          wss.close();
          server.close(() => done());
          server.closeAllConnections();
        }),
      ]).then(() => undefined);
      return closing;
    },
  };
}
