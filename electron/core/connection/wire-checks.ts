// Checks on what a server sends, made on the raw message before the SDK reads
// it: the SDK would otherwise turn `inputRequests: 42` into an empty round,
// which the host would take as the server pacing itself. A bad response is
// turned into a JSON-RPC error for its request, so the call ends with one
// clear sentence.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { jsonDepth, LIMITS } from '../limits';

/** Why a message is too deeply nested to pass on, or null. */
export function depthProblem(message: unknown, server: string, max: number = LIMITS.messageDepth): string | null {
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
