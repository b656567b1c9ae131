// Checks on what a server sends, made on the raw message before the SDK reads
// it: the SDK would otherwise turn `inputRequests: 42` into an empty round,
// which the host would take as the server pacing itself. A bad response is
// turned into a JSON-RPC error for its request, so the call ends with one
// clear sentence.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { jsonDepth, LIMITS } from '../limits';

/**
 * The last message the lane's read buffer parsed from a line too short to be
 * too deep, and that line's length, if depthProblem has not seen it yet. One
 * object, kept by identity: a WeakMap of lengths cost more than the walk it
 * spared (a profile at 05:13). Only short messages are kept, so nothing
 * large stays alive.
 */
let shortMessage: object | undefined;
let shortLength = 0;

/** Note that `message` is JSON.parse of a text of `length` characters (UTF-16 code units). */
export function noteTextLength(message: object, length: number): void {
  if (tooShortToBeTooDeep(length)) {
    shortMessage = message;
    shortLength = length;
  }
}

/**
 * True when a JSON text of `length` characters cannot hold a value that
 * depthProblem refuses. Refused means more than `max + 1` levels, counted as
 * jsonDepth counts them (the outermost object or array is 1): at least
 * `max + 2` objects or arrays nested in each other, each written with an
 * opening and a closing bracket, so at least `2 × (max + 2)` characters.
 * JSON.parse never makes a value deeper than its text (a repeated key only
 * drops a value).
 */
export function tooShortToBeTooDeep(length: number, max: number = LIMITS.messageDepth): boolean {
  return length < 2 * (max + 2);
}

/**
 * Why a message is too deeply nested to pass on, or null. The message last
 * noted by noteTextLength, if it is this one, spares the walk (about 4 % of
 * a pass-through call) when its text is too short to be too deep: the same
 * verdict. A note serves once and only its own object.
 */
export function depthProblem(message: unknown, server: string, max: number = LIMITS.messageDepth): string | null {
  if (message === shortMessage) {
    shortMessage = undefined;
    if (tooShortToBeTooDeep(shortLength, max)) return null;
  }
  // The envelope ({jsonrpc, id, result}) is one level; the limit is on what it carries.
  const depth = jsonDepth(message, max + 1);
  if (depth <= max + 1) return null;
  const m = message as { method?: unknown; result?: unknown; error?: unknown };
  const what =
    typeof m.method === 'string'
      ? `a ${JSON.stringify(m.method).slice(0, 80)} message`
      : 'error' in m && !('result' in m)
        ? 'an error'
        : 'a result';
  return (
    `server "${server}" sent ${what} nested more than ${max} levels deep (the host's limit), ` +
    'so the host did not accept it'
  );
}

/** What is wrong with an incoming response, or null. */
export function responseProblem(message: unknown, server: string): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return null;
  const r = result as { resultType?: unknown; inputRequests?: unknown };
  if (r.resultType === 'input_required' && 'inputRequests' in r) {
    const ir = r.inputRequests;
    if (typeof ir !== 'object' || ir === null || Array.isArray(ir)) {
      const what = Array.isArray(ir) ? 'an array' : ir === null ? 'null' : `${typeof ir} ${JSON.stringify(ir)}`;
      return (
        `server "${server}" sent an invalid input_required result: ` +
        `inputRequests must be an object of requests by key, not ${what}`
      );
    }
  }
  return null;
}

/** After connect: answer a bad response's request with an error naming the problem instead of passing it on. */
export function guardIncoming(transport: Transport, server: string): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<typeof deliver>[1]) => {
    const id = (message as { id?: unknown }).id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    // A message the reader noted as short is not walked (depthProblem): the same verdict.
    const tooDeep = depthProblem(message, server);
    if (tooDeep) {
      if (!hasId) return; // a notification: dropped, nothing waits for it
      if ('method' in message) {
        // The server's own request: refused back to the server, never handed to the SDK.
        void transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message: tooDeep } }).catch(() => undefined);
        return;
      }
      deliver.call(transport, { jsonrpc: '2.0', id, error: { code: -32603, message: tooDeep } }, extra);
      return;
    }
    const problem = responseProblem(message, server);
    if (problem && hasId) {
      deliver.call(transport, { jsonrpc: '2.0', id, error: { code: -32603, message: problem } }, extra);
      return;
    }
    deliver.call(transport, message, extra);
  };
}
