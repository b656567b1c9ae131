// A second, leaner way to send one request on a connection the SDK client
// already opened: the JSON-RPC frame is written to the same transport with
// the per-request envelope the SDK itself last sent, and the response is
// taken off the transport before the SDK's request machinery sees it. The
// gateway uses it for its pass-through calls (issue 14 §6: the SDK client's
// per-request work was a large part of the gateway's cost).
//
// What it does not change: the response has passed every transport-edge
// check (task-wire's task handles, wire-checks' guard) before it arrives
// here, because the lane wraps the SDK's own handler, inside those; and the
// caller validates the result with the same schema the SDK would have used.
// Ids are strings of the lane's own ("cs-lane-N"), so they can never meet
// the SDK's numeric ids. On stdio the lane's responses are also read past
// the SDK's per-message schema, checked by hand for the same things
// (lane-read-buffer.ts).
import { ProtocolError, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { CallCancel } from '../calls/call-cancel';
import { MCP_META_PREFIX } from '../client-identity';
import { HostError } from '../host-error';
import { LANE_ID_PREFIX, installLaneReadBuffer } from './lane-read-buffer';

export interface RawLane {
  /** False until the SDK sent one request, so the envelope it uses is known. */
  readonly ready: boolean;
  /**
   * Send `method` with `params`; resolves with the raw `result`, rejects with the server's error.
   * `first`, when given, sees the raw result as the response is read, in that same turn, before
   * the promise resolves: a caller can answer its own caller then (it must not throw).
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: { signal?: AbortSignal; cancel?: CallCancel; timeoutMs?: number; first?: FirstLook },
  ): Promise<unknown>;
}

/** A synchronous first look at a lane request's result (RawLane.request's `first`). */
export interface FirstLook {
  result(raw: unknown): void;
}

type Send = (message: JSONRPCMessage) => Promise<void>;

/**
 * One request in flight on the lane, as one object: it is its own cancel
 * listener (CallCancel.listen takes it as is), where a pass-through call
 * made six closures here, each an allocation on the path of every call and,
 * under tsx, a defineProperty for its name (docs/gateway-profile.md, round 5).
 */
class LaneRequest {
  deadline?: number;
  timeoutMs?: number;
  first?: FirstLook;
  private handle?: CallCancel;
  private signal?: AbortSignal;
  private onSignal?: () => void;
  private resolveWith!: (result: unknown) => void;
  private rejectWith!: (error: unknown) => void;

  constructor(
    readonly id: string,
    private readonly pending: Map<string, LaneRequest>,
    private readonly send: Send,
  ) {}

  promise(): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      this.resolveWith = resolve;
      this.rejectWith = reject;
    });
  }

  /** Cancelled with `handle` (a CallCancel costs a push and a splice; an AbortSignal listener far more). */
  follow(handle: CallCancel | undefined, signal: AbortSignal | undefined): void {
    if (handle) {
      this.handle = handle;
      handle.listen(this);
    }
    if (signal) {
      this.signal = signal;
      this.onSignal = () => this.abort();
      signal.addEventListener('abort', this.onSignal, { once: true });
    }
  }

  resolve(result: unknown): void {
    this.settle();
    this.first?.result(result);
    this.resolveWith(result);
  }

  reject(error: unknown): void {
    this.settle();
    this.rejectWith(error);
  }

  /** The call was cancelled: tell the server, give up on the response. */
  abort(): void {
    this.settle();
    this.cancelUpstream('the call was cancelled');
    this.rejectWith(new HostError('cancelled', 'the call was cancelled'));
  }

  /** The deadline passed: the same, with its own sentence. */
  expire(): void {
    this.settle();
    this.cancelUpstream('timed out');
    this.rejectWith(new HostError('connection', `the server did not answer in time (${this.timeoutMs} ms)`));
  }

  sendFailed(error: unknown): void {
    this.settle();
    this.rejectWith(new HostError('connection', `the server connection failed: ${String(error)}`));
  }

  private settle(): void {
    this.pending.delete(this.id);
    this.handle?.unlisten(this);
    if (this.onSignal) this.signal?.removeEventListener('abort', this.onSignal);
  }

  /** As the SDK does: tell the server, then give up on the response. */
  private cancelUpstream(reason: string): void {
    this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: this.id, reason } }).catch(
      () => undefined,
    );
  }
}

/** The envelope of the SDK's last request as it went on the wire. */
export interface EnvelopeTap {
  readonly envelope: Record<string, unknown> | undefined;
}

/**
 * Note the per-request envelope of every request as it is written. Call it
 * on the fresh transport BEFORE other send wrappers (task-wire), so it sees
 * what they made of it: the lane then sends what the wire already carried,
 * and task-wire has nothing to rewrite in the lane's frames.
 */
export function tapEnvelope(transport: Transport): EnvelopeTap {
  const tap: { envelope: Record<string, unknown> | undefined } = { envelope: undefined };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    // Learn the envelope from the SDK's own requests (it may change: log level); the lane's are its copy.
    const m = message as { id?: unknown; params?: { _meta?: Record<string, unknown> } };
    const meta = m.params?._meta;
    if (meta && m.id !== undefined && !(typeof m.id === 'string' && m.id.startsWith(LANE_ID_PREFIX))) {
      const own: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(meta)) if (k.startsWith(MCP_META_PREFIX)) own[k] = v;
      if (Object.keys(own).length > 0) tap.envelope = own;
    }
    return send(message, options);
  };
  return tap;
}

/**
 * Attach a lane to a connected transport. Call it right after the SDK
 * client connected and BEFORE other onmessage wrappers are installed, so
 * that theirs run first. `tap` (tapEnvelope) was put on the transport
 * before it connected.
 */
export function attachRawLane(transport: Transport, tap: EnvelopeTap): RawLane {
  installLaneReadBuffer(transport);
  const pending = new Map<string, LaneRequest>();
  let next = 0;
  let closed = false;

  // One timer for all the lane's deadlines, armed for the earliest: a timer
  // made and cleared per request was a measurable share of a pass-through
  // call (docs/gateway-profile.md). Each request still times out at its own
  // deadline. Unref'd: the open connection keeps the process alive, not it.
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweepAt = Number.POSITIVE_INFINITY;
  const arm = (at: number) => {
    if (sweepTimer && at >= sweepAt) return;
    clearTimeout(sweepTimer);
    sweepAt = at;
    sweepTimer = setTimeout(sweep, Math.max(0, at - Date.now()));
    sweepTimer.unref();
  };
  const sweep = () => {
    sweepTimer = undefined;
    sweepAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const p of [...pending.values()]) {
      if (p.deadline === undefined) continue;
      if (p.deadline <= now) p.expire();
      else earliest = Math.min(earliest, p.deadline);
    }
    if (earliest !== Number.POSITIVE_INFINITY) arm(earliest);
  };

  // The outermost send: the lane's frames pass every send wrapper, as the SDK's requests do.
  const send: Send = transport.send.bind(transport);

  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]) => {
    const id = (message as { id?: unknown }).id;
    const waiter = typeof id === 'string' ? pending.get(id) : undefined;
    if (!waiter || 'method' in message) {
      deliver?.call(transport, message, extra);
      return;
    }
    pending.delete(id as string);
    const m = message as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (m.error !== undefined) {
      const code = typeof m.error?.code === 'number' ? m.error.code : -32603;
      const text = typeof m.error?.message === 'string' ? m.error.message : 'the server answered with an error';
      waiter.reject(new ProtocolError(code, text, m.error?.data));
    } else waiter.resolve(m.result);
  };

  const onclose = transport.onclose;
  transport.onclose = () => {
    closed = true;
    const error = new HostError('connection', 'the server connection failed: the connection closed');
    for (const w of [...pending.values()]) w.reject(error);
    pending.clear();
    clearTimeout(sweepTimer);
    onclose?.call(transport);
  };

  return {
    get ready() {
      return tap.envelope !== undefined && !closed;
    },
    request(method, params, options) {
      const envelope = tap.envelope;
      if (!envelope || closed) return Promise.reject(new HostError('connection', 'the server connection is not open'));
      const { signal, cancel: handle, timeoutMs, first } = options;
      if (signal?.aborted || handle?.aborted)
        return Promise.reject(new HostError('cancelled', 'the call was cancelled'));
      const waiter = new LaneRequest(`${LANE_ID_PREFIX}${++next}`, pending, send);
      const promise = waiter.promise();
      waiter.follow(handle, signal);
      waiter.first = first;
      if (timeoutMs !== undefined) {
        waiter.timeoutMs = timeoutMs;
        waiter.deadline = Date.now() + timeoutMs;
        arm(waiter.deadline);
      }
      pending.set(waiter.id, waiter);
      // The envelope as the tap holds it, not a copy: nothing mutates it (the tap replaces it whole).
      const frame = { jsonrpc: '2.0' as const, id: waiter.id, method, params: { ...params, _meta: envelope } };
      send(frame).catch((error: unknown) => waiter.sendFailed(error));
      return promise;
    },
  };
}
