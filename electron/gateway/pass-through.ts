// The pass-through path for an agent's plain 2026-07-28 `tools/call` on
// stdio: the frame is read here, without the SDK server's request machinery
// (issue 14 §6: two SDK stacks per call were most of the gateway's own cost),
// and the call runs on the gateway's Host (Host.passThroughCall: the raw
// lane, the Host's full path the moment the server answers anything but a
// plain result): the same question gate, history, mute rules and result
// cleaning. Only requests
// whose every part is understood here take this path; anything else (another
// method, progress wanted, tasks declared, an unknown tool, a tool with an
// output schema, extra params or envelope keys) goes to the SDK server as
// before, so there is one behaviour and this is only a faster way to it.
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
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { CallCancel } from '../core/calls/call-cancel';
import { MCP_META_PREFIX, MODERN_PROTOCOL_VERSION, TASKS_EXTENSION } from '../core/client-identity';
import { GATEWAY_INFO, agentLabel } from './agent-server';
import type { Gateway } from './gateway';
import type { PassThroughRequest } from '../core/host';
import { WIRE_KEYS, cleanResult, toolFailure } from './results';

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
  private readonly running = new Map<string | number, CallCancel>();
  /** A call id drawn while the previous call's server worked, so the next request goes out without waiting for one. */
  private spareCallId: string | undefined;
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
    const call = new AgentCall(taken.id, this.send);
    this.running.set(taken.id, call.cancel);
    void this.run(taken, route.server, route.name, call);
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

  private async run(taken: Taken, server: string, name: string, call: AgentCall): Promise<void> {
    const { gateway } = this;
    const callId = this.spareCallId ?? randomUUID();
    this.spareCallId = undefined;
    try {
      if (!gateway.prepared(server)) await gateway.prepare(server);
      const request: PassThroughRequest = {
        server,
        name,
        cancel: call.cancel,
        // The same label the SDK path gives (agent-server.ts agentOf).
        agent: this.agentLabel(taken.clientInfo),
        callId,
        early: call,
      };
      if (taken.arguments) request.arguments = taken.arguments;
      // The request goes out in this turn; the tracker hears of the call while the server works.
      const running = gateway.host.passThroughCall(request);
      gateway.tracker.begin(callId);
      this.spareCallId ??= randomUUID();
      const { result } = await running;
      call.complete(result); // a call handed over to the Host's full path ends here
    } catch (error) {
      const failure = toolFailure(error, server, gateway.tracker.lastDecision(callId));
      call.reply(
        failure instanceof ProtocolError
          ? { jsonrpc: '2.0', id: taken.id, error: { code: wireCode(failure.code), message: failure.message } }
          : { jsonrpc: '2.0', id: taken.id, result: agentResult(failure) },
      );
    } finally {
      gateway.tracker.end(callId);
      this.running.delete(taken.id);
    }
  }
}

/** One agent request on this path: its cancel, and its one reply. */
class AgentCall {
  readonly cancel = new CallCancel();
  private replied = false;

  constructor(
    private readonly id: string | number,
    private readonly send: (message: JSONRPCMessage) => void,
  ) {}

  /** The call's result (told early by the Host, or at its end): the agent's reply. */
  complete(result: Record<string, unknown>): void {
    if (this.replied) return;
    const message: JSONRPCMessage = { jsonrpc: '2.0', id: this.id, result: agentResult(result) };
    this.reply(message);
  }

  /** Send the reply once; a call the agent cancelled gets none (as the SDK server does). */
  reply(message: JSONRPCMessage): void {
    if (this.replied || this.cancel.aborted) return;
    this.replied = true;
    this.send(message);
  }
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
