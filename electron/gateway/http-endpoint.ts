// The optional Streamable HTTP face of the gateway, for agents that prefer a
// URL to spawning a process. It binds 127.0.0.1 (an address, never the name
// `localhost`) and serves only /mcp. Anyone on this computer can reach a
// loopback port, so every request must carry the bearer token (kept in a
// file only the user can read); Host and Origin are checked too, so a web
// page cannot use the browser to reach the gateway (DNS rebinding).
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  validateHostHeader,
  type Server,
} from '@modelcontextprotocol/server';
import { approvalEndpoint, ensurePrivateDir, readTokenFile, writeTokenFile } from '../core/approval/endpoint';
import { messageOf } from '../core/host-error';
import { webHeaders, writeWebResponse } from '../core/web-response';
import { createAgentServer } from './agent-server';
import type { Gateway } from './gateway';
import { stderrLog } from '../core/terminal-output';

/** Largest request body read (the SDK's own default bound). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A 2025-era session nobody used for this long is closed. */
const LEGACY_SESSION_IDLE_MS = 60 * 60 * 1000;

/** Where the HTTP bearer token is kept for a data folder (0600, in the private run folder). */
export function httpTokenFile(dataDir: string): string {
  return join(approvalEndpoint(dataDir).runDir, 'gateway-http.token');
}

/**
 * The saved token, or a new one. The token is kept across runs so an
 * agent's configuration stays valid; `rotate` replaces it.
 */
export async function loadHttpToken(
  dataDir: string,
  rotate = false,
): Promise<{ token: string; file: string; created: boolean }> {
  const file = httpTokenFile(dataDir);
  await ensurePrivateDir(approvalEndpoint(dataDir).runDir);
  const saved = rotate ? undefined : await readTokenFile(file);
  if (saved && saved.length >= 32) return { token: saved, file, created: false };
  const token = randomBytes(32).toString('base64url');
  await writeTokenFile(file, token);
  return { token, file, created: true };
}

/** Constant-time comparison; hashing first hides the expected length too. */
function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export interface HttpEndpointOptions {
  gateway: Gateway;
  token: string;
  /** 0: a free port. */
  port: number;
  log?: (line: string) => void;
}

export interface HttpEndpoint {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  close(): Promise<void>;
}

/** Why a request is refused before anything of it is read, or undefined. */
type Refusal = { status: number; message: string; headers?: Record<string, string> };

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Token, then Host and Origin (a browser page must not reach the gateway
 * through DNS rebinding). The only Origin taken is the endpoint's own
 * (`own`, http://127.0.0.1:<port>), which no page has since the gateway
 * serves none: a page of another local server (any port on localhost) is
 * refused even with the token. An agent that is no browser sends no Origin.
 */
function refuse(req: IncomingMessage, token: string, own: string): Refusal | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m || !sameToken(m[1]!, token)) {
    return {
      status: 401,
      message: 'Unauthorized: send "Authorization: Bearer <token>" (see countersign gateway --help)',
      headers: { 'www-authenticate': 'Bearer realm="countersign-gateway"' },
    };
  }
  const host = validateHostHeader(req.headers.host, LOOPBACK_HOSTS);
  if (!host.ok) return { status: 403, message: `Forbidden: ${host.message}` };
  if (req.headers.origin !== undefined && req.headers.origin !== own)
    return { status: 403, message: 'Forbidden: this origin may not use the gateway' };
  return undefined;
}

/** Serve the gateway over Streamable HTTP on 127.0.0.1. */
export async function startHttpEndpoint(options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const { gateway, token } = options;
  const log = options.log ?? stderrLog;
  // 2026-07-28: one server instance per request; change notifications go to
  // the subscriptions/listen streams the handler keeps.
  const handler = createMcpHandler(() => createAgentServer(gateway, `http-${gateway.runId}`, { attach: false }), {
    legacy: 'reject',
    onerror: (e) => log(`countersign gateway (http): ${e.message}`),
  });
  const legacy = legacySessions(gateway, log);
  const stopForwarding = gateway.onListChanged((kind) => {
    if (kind === 'tools') handler.notify.toolsChanged();
    else if (kind === 'prompts') handler.notify.promptsChanged();
    else handler.notify.resourcesChanged();
  });

  // The body is parsed once here and handed on, instead of once per layer.
  const route = async (request: Request, parsedBody: unknown): Promise<Response> =>
    (await isLegacyRequest(request, parsedBody))
      ? legacy.fetch(request, parsedBody)
      : handler.fetch(request, parsedBody === undefined ? {} : { parsedBody });

  // Known once listening, before any request can arrive.
  let own = '';
  const server = createServer((req, res) => {
    void serve(req, res, token, own, route).catch((e) => {
      log(`countersign gateway (http): ${messageOf(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  own = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      stopForwarding();
      await handler.close().catch(() => undefined);
      await legacy.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * 2025-era agents get real sessions (one server instance each, pinned by
 * mcp-session-id): their clientInfo labels the questions they cause, and
 * their GET stream carries list changes. Idle sessions are closed.
 */
function legacySessions(gateway: Gateway, log: (line: string) => void) {
  const sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; server: Server; used: number }
  >();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions)
      if (now - s.used > LEGACY_SESSION_IDLE_MS)
        void s.server
          .close()
          .catch(() => undefined)
          .finally(() => sessions.delete(id));
  }, 60_000);
  sweep.unref();
  return {
    async fetch(request: Request, parsedBody: unknown): Promise<Response> {
      const options = parsedBody === undefined ? {} : { parsedBody };
      const id = request.headers.get('mcp-session-id');
      if (id) {
        const session = sessions.get(id);
        if (!session)
          return Response.json(
            { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
            { status: 404 },
          );
        session.used = Date.now();
        return session.transport.handleRequest(request, options);
      }
      let server: Server | undefined;
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, { transport, server: server!, used: Date.now() }),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      server = createAgentServer(gateway, () => `http-${gateway.runId}-${(transport.sessionId ?? '').slice(0, 6)}`);
      // 2025-11-25 task bodies are put in place on the way out (see LegacyTaskHandles).
      const send = transport.send.bind(transport);
      transport.send = (message, opts) => send(gateway.legacyTaskHandles.rewrite(message), opts);
      await server.connect(transport);
      const response = await transport.handleRequest(request, options);
      if (!transport.sessionId) await server.close().catch((e) => log(`countersign gateway (http): ${messageOf(e)}`));
      return response;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  own: string,
  route: (r: Request, parsedBody: unknown) => Promise<Response>,
): Promise<void> {
  const controller = new AbortController();
  // The agent hung up: abort the exchange, which cancels the call and closes its dialog.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path !== '/mcp') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  // Refuse before reading the body: an unauthenticated peer gets nothing read or parsed.
  const refused = refuse(req, token, own);
  if (refused) {
    res
      .writeHead(refused.status, { 'content-type': 'application/json', ...refused.headers })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: refused.message }, id: null }));
    return;
  }
  const headers = webHeaders(req.headers);
  const method = (req.method ?? 'GET').toUpperCase();
  let body: Buffer | undefined;
  let parsedBody: unknown;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large');
        return;
      }
      chunks.push(chunk as Buffer);
    }
    body = Buffer.concat(chunks);
    try {
      parsedBody = JSON.parse(body.toString('utf8'));
    } catch {
      parsedBody = undefined; // the SDK answers a parse error itself
    }
  }
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/mcp'}`, {
    method,
    headers,
    signal: controller.signal,
    ...(body !== undefined ? { body: new Uint8Array(body) } : {}),
  });
  await writeWebResponse(await route(request, parsedBody), res);
}
