// The host API over one WebSocket per browser tab. Every request goes
// through HostService.invoke, which validates method and params; the bridge
// only frames, answers and broadcasts events. Each socket is a tab with a
// label ("tab 1", "tab 2", … in the order they connected, never reused in a
// run), which the history keeps with the answers given in it. A tab going
// away (closed, reloaded, dropped) sends nothing: its questions stay open
// for the other tabs and for the next one. Nothing a tab sends can crash
// the shell: unreadable frames get an error reply, oversized ones close
// that socket, and a socket that stops answering pings is dropped.
import type { WebSocket } from 'ws';
import { hostEventNames } from '../../shared/host-api/contract';
import { isHostError, messageOf } from '../core/host-error';
import type { HostService } from '../core/service/host-service';
import {
  toWireError,
  type RequestId,
  type WireEvent,
  type WireReply,
  type WireRequest,
} from '../../shared/host-api/wire';
import { stderrLog } from '../core/terminal-output';

/** Requests one tab may have in flight; more are refused, not queued. */
const MAX_IN_FLIGHT = 64;
/** A tab that cannot keep up (megabytes queued unsent) is dropped. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const MAX_ID_LENGTH = 100;

export interface BridgeOptions {
  /** How often to ping each socket; one missed pong closes it. */
  heartbeatMs?: number;
  log?: (line: string) => void;
}

/** Serves the host API to every connected tab and pushes events to all of them. */
export class WsBridge {
  private readonly sockets = new Set<WebSocket>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly log: (line: string) => void;
  private tabsSeen = 0;

  constructor(
    private readonly service: Pick<HostService, 'invoke' | 'on'>,
    options: BridgeOptions = {},
  ) {
    this.log = options.log ?? stderrLog;
    for (const event of hostEventNames) {
      this.unsubscribe.push(service.on(event, (payload) => this.broadcast({ event, payload })));
    }
    this.heartbeat = setInterval(() => this.checkAlive(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /** Number of open tabs. */
  get size(): number {
    return this.sockets.size;
  }

  /** Take over an authenticated socket: a new tab. */
  add(socket: WebSocket): void {
    this.tabsSeen += 1;
    const place = `tab ${this.tabsSeen}`;
    this.sockets.add(socket);
    this.alive.add(socket);
    let inFlight = 0;
    socket.on('pong', () => this.alive.add(socket));
    socket.on('message', (data, isBinary) => {
      if (isBinary)
        return this.send(socket, { id: null, error: { message: 'binary frames are not supported: send JSON text' } });
      const parsed = parseRequest(data.toString());
      if ('error' in parsed) return this.send(socket, parsed);
      if (inFlight >= MAX_IN_FLIGHT)
        return this.send(socket, {
          id: parsed.id,
          error: { message: `too many requests in flight (at most ${MAX_IN_FLIGHT})` },
        });
      inFlight += 1;
      this.service
        .invoke(parsed.method, parsed.params, place)
        .then(
          (result) => this.send(socket, { id: parsed.id, result: result ?? null }),
          (error) => this.send(socket, { id: parsed.id, error: wireErrorOf(error) }),
        )
        .finally(() => {
          inFlight -= 1;
        });
    });
    socket.on('error', (error) => {
      this.log(`countersign web: socket error: ${error.message}`);
      socket.terminate();
    });
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Stop listening to the service and close every tab. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const off of this.unsubscribe.splice(0)) off();
    for (const socket of this.sockets) socket.close(1001, 'Countersign is shutting down');
    // Sockets that do not finish the closing handshake promptly are cut.
    const stragglers = [...this.sockets];
    setTimeout(() => stragglers.forEach((s) => s.terminate()), 1000).unref();
  }

  private broadcast(message: WireEvent): void {
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      this.log(`countersign web: event ${message.event} could not be serialised: ${messageOf(error)}`);
      return;
    }
    for (const socket of this.sockets) this.sendText(socket, text);
  }

  private send(socket: WebSocket, reply: WireReply): void {
    let text: string;
    try {
      text = JSON.stringify(reply);
    } catch (error) {
      text = JSON.stringify({
        id: reply.id,
        error: { message: `the result could not be serialised: ${messageOf(error)}` },
      });
    }
    this.sendText(socket, text);
  }

  private sendText(socket: WebSocket, text: string): void {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log('countersign web: a tab stopped reading; its socket was closed');
      socket.terminate();
      return;
    }
    socket.send(text);
  }

  private checkAlive(): void {
    for (const socket of this.sockets) {
      if (!this.alive.has(socket)) {
        socket.terminate();
        continue;
      }
      this.alive.delete(socket);
      socket.ping();
    }
  }
}

// The host's own errors keep their code and details; anything else is reduced to its message.
function wireErrorOf(error: unknown) {
  return isHostError(error) ? toWireError(error) : { message: messageOf(error) };
}

/** Read one request frame, or the error reply for it. */
export function parseRequest(text: string): WireRequest | { id: RequestId | null; error: { message: string } } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, error: { message: 'malformed frame: not JSON' } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { id: null, error: { message: 'malformed frame: expected a JSON object {id, method, params}' } };
  const frame = value as Record<string, unknown>;
  const id = frame.id;
  const validId =
    (typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH) ||
    (typeof id === 'number' && Number.isSafeInteger(id));
  if (!validId)
    return { id: null, error: { message: 'malformed frame: "id" must be a non-empty string or an integer' } };
  if (typeof frame.method !== 'string')
    return { id: id, error: { message: 'malformed frame: "method" must be a string' } };
  return { id: id, method: frame.method, params: frame.params };
}
