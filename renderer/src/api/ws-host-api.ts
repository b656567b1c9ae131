// The HostApi over the loopback web shell's WebSocket (browser code: no
// Node imports). Requests made before the socket opens wait in a queue; a
// dropped socket is reopened with backoff; requests the host had received
// but not answered when the socket dropped are rejected (they may or may
// not have run, so they are never re-sent blindly).
//
// The methods, `on` and the errors come from the one generic client
// (shared/host-api/host-client.ts); this file is its WebSocket transport.
// Wire protocol and constants: shared/host-api/wire.ts (the server uses the same file).
// The per-run token travels as a WebSocket subprotocol, never in the URL.
import type { HostApi, HostMethodName } from '../../../shared/host-api/contract';
import { createHostClient, errorFromWire, HostApiError } from '../../../shared/host-api/host-client';
import { API_PATH, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../../shared/host-api/wire';

export { HostApiError, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL };

/** The part of the browser WebSocket this client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/**
 * A WebSocket constructor: the browser's, or `ws` in Node tests. Typed
 * loosely because DOM and `ws` declare their handler events differently;
 * both have the WebSocketLike shape at run time.
 */
export type WebSocketConstructor = new (url: string, protocols: string[]) => object;
type LikeConstructor = new (url: string, protocols: string[]) => WebSocketLike;

/** Where the connection stands; the UI shows a banner and re-reads state after a reconnect. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed';

export interface WsHostApiOptions {
  WebSocket?: WebSocketConstructor;
  /** First reconnect delay; doubles up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Consecutive attempts that never opened before giving up (a stopped shell, a stale token). */
  maxFailedAttempts?: number;
}

/** The HostApi plus the connection controls a web front end needs. */
export type WsHostApi = HostApi & {
  readonly connection: ConnectionState;
  /** Follow the connection state; returns the unsubscribe function. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** Close for good; pending requests are rejected. */
  close(): void;
};

const OPEN = 1;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,200}$/;

/** The token from the page URL (`#token=...`, or `?token=...`), or null. */
export function tokenFromLocation(location: { hash?: string; search?: string }): string | null {
  for (const part of [location.hash, location.search]) {
    if (!part) continue;
    const token = new URLSearchParams(part.replace(/^[#?]/, '')).get('token');
    if (token && TOKEN_PATTERN.test(token)) return token;
  }
  return null;
}

/** The API socket URL for a page served by the shell. */
export function apiUrlFromLocation(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${API_PATH}`;
}

interface Pending {
  method: HostMethodName;
  frame: string;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A HostApi speaking to the web shell at `url` (ws://127.0.0.1:PORT/api) with this run's token. */
export function createWsHostApi(url: string, token: string, options: WsHostApiOptions = {}): WsHostApi {
  const Ctor = (options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket) as
    LikeConstructor | undefined;
  const initialBackoff = options.initialBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  const maxFailed = options.maxFailedAttempts ?? 10;
  const pending = new Map<number, Pending>();
  let emit: (event: string, payload: unknown) => void = () => undefined;
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocketLike | undefined;
  let nextId = 1;
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let fatal: string | undefined;

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    for (const l of [...connectionListeners]) l(next);
  };

  const failAll = (message: string, which: (p: Pending) => boolean) => {
    for (const [id, p] of [...pending]) {
      if (!which(p)) continue;
      pending.delete(id);
      p.reject(new HostApiError(message.replace('%METHOD%', p.method), 'connection'));
    }
  };

  const giveUp = (message: string) => {
    fatal = message;
    setState('failed');
    failAll(message, () => true);
  };

  const flush = () => {
    for (const p of pending.values()) {
      if (p.sent || !socket || socket.readyState !== OPEN) continue;
      socket.send(p.frame);
      p.sent = true;
    }
  };

  const onFrame = (data: unknown) => {
    if (typeof data !== 'string') return;
    let msg: {
      id?: unknown;
      result?: unknown;
      error?: unknown;
      event?: unknown;
      payload?: unknown;
    };
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg.event === 'string') return emit(msg.event, msg.payload);
    if (typeof msg.id !== 'number') return;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(errorFromWire(msg.error));
    else p.resolve(msg.result);
  };

  const connect = () => {
    retryTimer = undefined;
    if (!Ctor) return giveUp('this browser has no WebSocket support');
    let ws: WebSocketLike;
    let opened = false;
    try {
      ws = new Ctor(url, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`]);
    } catch (error) {
      return giveUp(`cannot connect to Countersign at ${url}: ${(error as Error).message}`);
    }
    socket = ws;
    ws.onopen = () => {
      opened = true;
      failedAttempts = 0;
      setState('open');
      flush();
    };
    ws.onmessage = (event) => onFrame(event.data);
    ws.onerror = () => undefined; // onclose follows and decides
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      // Sent but unanswered: the host may have acted on it, so it is not re-sent.
      failAll(
        'the connection to Countersign closed before it answered %METHOD%; it may or may not have been carried out',
        (p) => p.sent,
      );
      if (state === 'closed' || state === 'failed') return;
      if (!opened) failedAttempts += 1;
      if (failedAttempts >= maxFailed) {
        return giveUp(
          `cannot reach Countersign at ${url}: is "countersign web" still running? Open the link it printed again ` +
            '(a restart makes a new token).',
        );
      }
      setState('reconnecting');
      const delay = Math.min(maxBackoff, initialBackoff * 2 ** Math.max(0, failedAttempts - 1));
      retryTimer = setTimeout(connect, delay * (0.8 + Math.random() * 0.4));
    };
  };

  const request = (method: HostMethodName, params: unknown): Promise<unknown> => {
    if (state === 'closed')
      return Promise.reject(new HostApiError(`${method}: the connection to Countersign was closed`, 'connection'));
    if (state === 'failed')
      return Promise.reject(new HostApiError(`${method}: ${fatal ?? 'no connection to Countersign'}`, 'connection'));
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, {
        method,
        frame: JSON.stringify({ id, method, params: params ?? {} }),
        sent: false,
        resolve,
        reject,
      });
      flush();
    });
  };

  const client = createHostClient({
    request,
    listen: (deliver) => {
      emit = deliver;
    },
  });
  const api: Record<string, unknown> = client;
  api.onConnection = (listener: (s: ConnectionState) => void) => {
    connectionListeners.add(listener);
    return () => void connectionListeners.delete(listener);
  };
  api.close = () => {
    if (state === 'closed') return;
    setState('closed');
    if (retryTimer) clearTimeout(retryTimer);
    failAll('%METHOD%: the connection to Countersign was closed', () => true);
    const ws = socket;
    socket = undefined;
    ws?.close(1000, 'closed by the page');
  };
  Object.defineProperty(api, 'connection', { get: () => state, enumerable: true });

  if (!TOKEN_PATTERN.test(token))
    giveUp('no valid token: open the link that "countersign web" printed (it ends in #token=...)');
  else connect();
  // The generic client plus the connection controls installed above.
  return api as WsHostApi;
}
