// The read side of the raw lane (raw-lane.ts) on a stdio connection: the
// SDK's stdio client transport parses each line and checks it against the
// JSON-RPC message schema (a zod union of four objects) before anything
// sees it; for the lane's own responses that check was the largest single
// piece of zod left in a pass-through call (docs/gateway-profile.md). This
// buffer does what the SDK's ReadBuffer does (same size bound, same error
// text, lines that are not JSON skipped) and checks a response to a lane
// request by hand, against exactly what the schema requires of a response:
// `jsonrpc: "2.0"`, the id, either an object `result` (whose `_meta`, when
// present, is an object) or an `error` with an integer `code` and a string
// `message`, and no other key. Every other message gets the SDK's own
// schema, unchanged. Either way the message then goes through the
// transport's onmessage, so every transport-edge check (depth, input
// requests, task handles) still runs; the lane test compares the hand check
// with the schema on the same messages.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { vouchedAs } from '../../../shared/vouched-as';
import { noteTextLength } from './wire-checks';

/** Ids of lane requests start with this; the SDK's own ids are numbers. */
export const LANE_ID_PREFIX = 'cs-lane-';

const RESPONSE_KEYS = new Set(['jsonrpc', 'id', 'result', 'error']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for a parsed message that answers a lane request (it is checked by hand, not by the SDK's schema). */
export function isLaneResponse(m: unknown): m is Record<string, unknown> {
  return isObject(m) && typeof m.id === 'string' && m.id.startsWith(LANE_ID_PREFIX) && !('method' in m);
}

/** What the SDK's JSON-RPC message schema would refuse in a response, or undefined when it accepts it. */
export function laneResponseProblem(m: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(m)) if (!RESPONSE_KEYS.has(k)) return `unknown key ${JSON.stringify(k).slice(0, 80)}`;
  if (m.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (typeof m.id !== 'string' && !Number.isSafeInteger(m.id)) return 'id is not a string or an integer';
  if ('result' in m) {
    if ('error' in m) return 'both result and error';
    if (!isObject(m.result)) return 'result is not an object';
    if ('_meta' in m.result && !isObject(m.result._meta)) return 'result._meta is not an object';
    return undefined;
  }
  if (!('error' in m)) return 'neither result nor error';
  const e = m.error;
  if (!isObject(e)) return 'error is not an object';
  if (!Number.isSafeInteger(e.code)) return 'error.code is not an integer';
  if (typeof e.message !== 'string') return 'error.message is not a string';
  return undefined;
}

/** The SDK ReadBuffer's interface, as its stdio transport uses it. */
interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

class LaneReadBuffer implements ReadBufferLike {
  /** Unread bytes: `head` (may hold a newline), then `tail` chunks with none (joined once a line ends). */
  private head: Buffer | undefined;
  private tail: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly maxBufferSize: number,
    pending: Buffer | undefined,
  ) {
    if (pending) {
      this.head = pending;
      this.size = pending.length;
    }
  }

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBufferSize) {
      this.clear();
      // The SDK's words: hostCloseReason (server-connection.ts) reads them.
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.size += chunk.length;
    // A long message arrives in many chunks: they are joined once, when its line ends,
    // not on every chunk (the SDK's ReadBuffer copies the whole buffer per chunk).
    if (!this.head) this.head = chunk;
    else if (chunk.indexOf(10) === -1) this.tail.push(chunk);
    else {
      this.head = Buffer.concat([this.head, ...this.tail, chunk]);
      this.tail = [];
    }
  }

  readMessage(): JSONRPCMessage | null {
    while (this.head) {
      const index = this.head.indexOf(10);
      if (index === -1) return null;
      // The line without its newline and a CR before it (the SDK strips /\r$/).
      const line = this.head.toString('utf8', 0, index > 0 && this.head[index - 1] === 13 ? index - 1 : index);
      this.size -= index + 1;
      if (index + 1 < this.head.length) this.head = this.head.subarray(index + 1);
      else {
        this.head = this.tail.length > 0 ? Buffer.concat(this.tail) : undefined;
        this.tail = [];
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue; // not JSON: skipped, as the SDK's ReadBuffer does
      }
      if (!isLaneResponse(parsed)) return JSONRPCMessageSchema.parse(parsed);
      const problem = laneResponseProblem(parsed);
      // Refused as the schema refuses it: the transport reports it (onerror) and the message is dropped.
      if (problem) throw new Error(`the server sent an invalid JSON-RPC response: ${problem}`);
      // The line's length lets wire-checks skip the depth walk on a short line (same verdict).
      noteTextLength(parsed, line.length);
      // laneResponseProblem checked what the SDK's message schema checks of a response.
      return vouchedAs<JSONRPCMessage>(parsed);
    }
    return null;
  }

  clear(): void {
    this.head = undefined;
    this.tail = [];
    this.size = 0;
  }
}

/**
 * Put the lane's read buffer into an SDK stdio client transport (its
 * `_readBuffer`, read on every chunk). False, and nothing changed, when the
 * transport has no such buffer (not the SDK's stdio transport).
 */
export function installLaneReadBuffer(transport: Transport): boolean {
  // The SDK keeps the buffer in a TypeScript-private field; its shape is checked below before use.
  const t = vouchedAs<{ _readBuffer?: { _maxBufferSize?: unknown; _buffer?: unknown; readMessage?: unknown } }>(
    transport,
  );
  const old = t._readBuffer;
  if (!old || typeof old.readMessage !== 'function' || typeof old._maxBufferSize !== 'number') return false;
  const pending = Buffer.isBuffer(old._buffer) && old._buffer.length > 0 ? old._buffer : undefined;
  (t as { _readBuffer: ReadBufferLike })._readBuffer = new LaneReadBuffer(old._maxBufferSize, pending);
  return true;
}
