// The gateway's own reading of the agent's stdin, and the shortcut it allows
// for a plain 2026-07-28 `tools/call` (issue 14 §6; issue 25 item 1: the one
// place where the gateway speaks the wire itself, and only toward the agent).
//
// GatewayStdioTransport is a Transport (the SDK's public interface) over
// this process's stdin and stdout: each line is parsed once; a request that
// PassThrough takes never reaches the SDK server's request machinery (two
// SDK stacks per call were most of the gateway's own cost), and every other
// line is checked by the SDK's own JSON-RPC message schema
// (deserializeMessage) and handed to the SDK server as before.
//
// A call PassThrough takes runs on the Host's ordinary path (Host.call: the
// SDK client's public request, the question gate, history, mute rules,
// round limit and tasks as for any call), and its result is cleaned as the
// SDK path cleans it (results.ts). Only requests whose every part is
// understood here take this path; anything else (another method, progress
// wanted, tasks declared, an unknown tool, a tool with an output schema,
// extra params or envelope keys) goes to the SDK server, so there is one
// behaviour and this is only a faster way to it.
//
// The checks kept (each guards the human or the agent):
// - the agent's params are never forwarded: the Host builds the upstream
//   request from the tool's own name and the arguments only, so an agent
//   cannot smuggle `inputResponses`, `requestState` or `_meta` to a server;
// - every question still goes through the Host's QuestionGate to the app;
// - the result is cleaned (results.ts: no multi-round-trip material, no
//   server-reserved `_meta`) and failures become the same fixed sentences;
// - the request is checked for what the SDK would refuse: JSON-RPC shape,
//   the 2026-07-28 envelope (protocol version, client capabilities), a
//   string tool name and object arguments.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SERVER_INFO_META_KEY,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { MCP_META_PREFIX, MODERN_PROTOCOL_VERSION, TASKS_EXTENSION } from '../core/client-identity';
import type { CallRequest } from '../core/host';
import { GATEWAY_INFO, agentLabel } from './agent-server';
import type { Gateway } from './gateway';
import { WIRE_KEYS, cleanResult, toolFailure } from './results';
import { heldTarget, keepAliveDue, type HeldCall } from './held-calls';

const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
]);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the pass-through path needs of a request it takes. */
interface Taken {
  id: string | number;
  name: string;
  arguments?: Record<string, unknown>;
  /** The envelope's clientInfo (untrusted; agentLabel cleans it). */
  clientInfo: { name?: unknown; version?: unknown } | undefined;
}

/** The request, when this path can take it; undefined sends it the SDK way. */
export function takeable(message: unknown): Taken | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  const id = message.id;
  if (typeof id !== 'string' && (typeof id !== 'number' || !Number.isInteger(id))) return undefined;
  const params = message.params;
  if (!isPlainObject(params)) return undefined;
  for (const k of Object.keys(params)) if (!PARAM_KEYS.has(k)) return undefined;
  if (typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
  for (const k of Object.keys(meta)) if (!ENVELOPE_KEYS.has(k)) return undefined;
  const caps = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isPlainObject(caps)) return undefined;
  // Agents that declare tasks may get a task handle: the SDK server's handler decides.
  if (isPlainObject(caps.extensions) && TASKS_EXTENSION in caps.extensions) return undefined;
  const info = meta[CLIENT_INFO_META_KEY];
  if (info !== undefined && !isPlainObject(info)) return undefined;
  return {
    id,
    name: params.name,
    ...(params.arguments !== undefined ? { arguments: params.arguments } : {}),
    clientInfo: info,
  };
}

/** The calls this path runs on one connection, cancellable by the agent's notifications/cancelled. */
export class PassThrough {
  private readonly running = new Map<string | number, AbortController>();
  /** The last agent label made, by the clientInfo it was made from (an agent sends the same one each call). */
  private label: { name: unknown; version: unknown; text: string } | undefined;

  constructor(
    private readonly gateway: Gateway,
    private readonly connection: string,
    private readonly send: (message: JSONRPCMessage) => void,
  ) {}

  /** Take the message if it is a request this path runs (true), else leave it to the SDK (false). */
  take(message: unknown): boolean {
    const taken = takeable(message);
    if (!taken || this.running.has(taken.id)) return false;
    const route = this.gateway.catalog.knownTool(taken.name);
    // Unknown (not listed yet, or gone), or a structured-output tool: the SDK path lists again and projects.
    if (!route || route.item.outputSchema !== undefined) return false;
    if (!this.gateway.hasServer(route.server)) return false;
    const cancel = new AbortController();
    this.running.set(taken.id, cancel);
    void this.run(taken, route.server, route.name, cancel);
    return true;
  }

  /** An agent's notifications/cancelled for a call of this path (true when it was one). */
  cancelled(message: unknown): boolean {
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled') return false;
    const requestId = isPlainObject(message.params) ? message.params.requestId : undefined;
    const controller =
      typeof requestId === 'string' || typeof requestId === 'number' ? this.running.get(requestId) : undefined;
    if (!controller) return false;
    controller.abort(new Error('cancelled by the agent'));
    return true;
  }

  private agentLabel(info: Taken['clientInfo']): string {
    const { name, version } = info ?? {};
    let label = this.label;
    if (!label || label.name !== name || label.version !== version) {
      label = { name, version, text: agentLabel(info, this.connection) };
      this.label = label;
    }
    return label.text;
  }

  /** The agent went away: its calls end (their questions are withdrawn). */
  close(): void {
    for (const c of this.running.values()) c.abort(new Error('the agent disconnected'));
    this.running.clear();
  }

  private async run(taken: Taken, server: string, name: string, cancel: AbortController): Promise<void> {
    const { gateway } = this;
    const { signal } = cancel;
    const callId = randomUUID();
    // One reply per call; a cancelled call gets none (as the SDK server does).
    // Once the call is held (keep-alive), its end goes to the agent's repeat instead.
    let replied = false;
    let held: (HeldCall & { settle(end: { result: unknown } | { error: unknown }): void }) | undefined;
    const reply = (message: JSONRPCMessage) => {
      if (signal.aborted) return;
      if (held) {
        if ('error' in message) held.settle({ error: protocolError(message.error) });
        else if ('result' in message) held.settle({ result: message.result });
        return;
      }
      if (replied) return;
      replied = true;
      this.send(message);
    };
    // A 2026-07-28 agent whose request waits for the human past the keep-alive
    // time gets a state-only input_required; its repeat (which carries the
    // handle, so it goes the SDK way) picks the call up (agent-server.ts).
    const keepAlive =
      gateway.keepAliveMs > 0 ? keepAliveDue(gateway.keepAliveMs, () => gateway.tracker.asked(callId)) : undefined;
    void keepAlive?.due.then(() => {
      if (replied || signal.aborted) return;
      held = heldCall(this.connection, heldTarget('tools/call', taken.name), callId, cancel);
      const requestState = gateway.heldCalls.hold(held);
      replied = true;
      this.send({
        jsonrpc: '2.0',
        id: taken.id,
        result: { resultType: 'input_required', requestState, _meta: { [SERVER_INFO_META_KEY]: GATEWAY_INFO } },
      });
    });
    try {
      if (!gateway.prepared(server)) await gateway.prepare(server);
      const request: CallRequest = {
        server,
        method: 'tools/call',
        name,
        signal,
        // The same label the SDK path gives (agent-server.ts agentOf).
        agent: this.agentLabel(taken.clientInfo),
        callId,
        // The agent has its answer while the Host still does the end of the call (history, observers).
        onResult: (result) => reply({ jsonrpc: '2.0', id: taken.id, result: agentResult(result) }),
      };
      if (taken.arguments) request.arguments = taken.arguments;
      gateway.tracker.begin(callId, () => {
        keepAlive?.changed();
        held?.onChange();
      });
      const { result } = await gateway.host.call(request);
      // A call that became a task (a legacy server's choice) has its result only now.
      if (!replied || held) reply({ jsonrpc: '2.0', id: taken.id, result: agentResult(result) });
    } catch (error) {
      const failure = toolFailure(error, server, gateway.tracker.lastDecision(callId));
      reply(
        failure instanceof ProtocolError
          ? { jsonrpc: '2.0', id: taken.id, error: { code: wireCode(failure.code), message: failure.message } }
          : { jsonrpc: '2.0', id: taken.id, result: agentResult(failure) },
      );
    } finally {
      keepAlive?.stop();
      gateway.tracker.end(callId);
      this.running.delete(taken.id);
    }
  }
}

/** A held call of this path: `settle` ends it for the repeat that picks it up. */
function heldCall(
  owner: string,
  target: string,
  callId: string,
  controller: AbortController,
): HeldCall & { settle(end: { result: unknown } | { error: unknown }): void } {
  let settle!: (end: { result: unknown } | { error: unknown }) => void;
  const running = new Promise<unknown>((resolve, reject) => {
    settle = (end) => ('error' in end ? reject(end.error) : resolve(end.result));
  });
  // Settled while held, with no repeat awaiting it yet: not an unhandled rejection.
  running.catch(() => undefined);
  return { owner, target, callId, controller, running, onChange: () => undefined, settle: (end) => settle(end) };
}

/** A JSON-RPC error this path wrote, as the ProtocolError the SDK server answers the repeat with. */
function protocolError(error: { code: number; message: string }): ProtocolError {
  return new ProtocolError(error.code, error.message);
}

/**
 * A tool result as the SDK server would have sent it on 2026-07-28, in one
 * pass: the server's result cleaned as results.ts `cleanResult` cleans it
 * (no multi-round-trip material, no server-reserved `_meta`), then with
 * content, resultType and the gateway's serverInfo, in the same key order
 * as spreading the cleaned result would give. Host-written failures pass
 * unchanged but for the stamp. A `__proto__` key anywhere takes the
 * two-step way, whose semantics for it are the reference.
 */
export function agentResult(
  result: Record<string, unknown>,
): Record<string, unknown> & { _meta: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  let kept: Record<string, unknown> | undefined;
  for (const k of Object.keys(result)) {
    if (k === '__proto__') return stamped(cleanResult(result));
    if (WIRE_KEYS.has(k)) continue;
    const v = result[k];
    if (k === '_meta' && v && typeof v === 'object') {
      const meta = v as Record<string, unknown>;
      for (const mk of Object.keys(meta)) {
        if (mk === '__proto__') return stamped(cleanResult(result));
        if (!mk.startsWith(MCP_META_PREFIX)) (kept ??= {})[mk] = meta[mk];
      }
      if (kept) out._meta = kept; // its place kept; the stamp is added below
      continue;
    }
    out[k] = v;
  }
  if (out.content === undefined) out.content = [];
  out.resultType = 'complete';
  const meta = kept ?? {};
  meta[SERVER_INFO_META_KEY] = GATEWAY_INFO;
  out._meta = meta;
  return out as Record<string, unknown> & { _meta: Record<string, unknown> };
}

/** The stamp alone, on a result already cleaned. */
function stamped(result: Record<string, unknown>): Record<string, unknown> & { _meta: Record<string, unknown> } {
  const meta = isPlainObject(result._meta) ? result._meta : {};
  return {
    ...result,
    ...(result.content === undefined ? { content: [] } : {}),
    resultType: 'complete',
    _meta: { ...meta, [SERVER_INFO_META_KEY]: GATEWAY_INFO },
  };
}

/** The 2026-07-28 codec's error-code mapping (-32002 became -32602). */
function wireCode(code: number): number {
  return code === -32002 ? -32602 : code;
}

/** What may take a parsed message before the SDK sees it (true: taken). */
export interface Interceptor {
  take(message: unknown): boolean;
  cancelled(message: unknown): boolean;
  close(): void;
}

const DONE = Promise.resolve();

/**
 * The agent's stdin and stdout as a Transport, behaving as the SDK's stdio
 * server transport does (the same bound on unread input and its error text,
 * lines that are not JSON skipped, a CR before the newline stripped), with
 * each line parsed once and offered to the interceptor first.
 */
export class GatewayStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set before start: the pass-through path. */
  interceptor?: Interceptor;
  private buffer: Buffer | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    // eslint-disable-next-line no-restricted-properties -- here stdout is the MCP channel, not a terminal
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const index: number = this.buffer?.indexOf(10) ?? -1;
      if (index === -1 || !this.buffer) return;
      // Without its newline and a CR before it (the SDK strips /\r$/).
      const line = this.buffer.toString('utf8', 0, index > 0 && this.buffer[index - 1] === 13 ? index - 1 : index);
      this.buffer = index + 1 < this.buffer.length ? this.buffer.subarray(index + 1) : undefined;
      this.line(line);
      if (this.closed) return;
    }
  };

  private line(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // not JSON: skipped, as the SDK's read buffer does
    }
    try {
      const fast = this.interceptor;
      if (fast && (fast.take(parsed) || fast.cancelled(parsed))) return;
      this.onmessage?.(deserializeMessage(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private readonly onError = (error: Error) => this.onerror?.(error);
  private readonly onStdoutError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };
  private readonly onEnd = () => void this.close();

  async start(): Promise<void> {
    if (this.started) throw new Error('GatewayStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onStdoutError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = undefined;
    this.interceptor?.close();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('GatewayStdioTransport is closed'));
    // The common case (the pipe took it) makes no promise of its own and no listeners.
    if (this.stdout.write(serializeMessage(message))) return DONE;
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        this.stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        this.stdout.off('error', onError);
        resolve();
      };
      this.stdout.once('drain', onDrain);
      this.stdout.once('error', onError);
    });
  }
}
