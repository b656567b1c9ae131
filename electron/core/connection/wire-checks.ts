// Checks on what a server sends, made on the raw message before the SDK reads
// it: the SDK would otherwise turn `inputRequests: 42` into an empty round,
// which the host would take as the server pacing itself. A bad response is
// turned into a JSON-RPC error for its request, so the call ends with one
// clear sentence.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

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
      return `server "${server}" sent an invalid input_required result: inputRequests must be an object of requests by key, not ${what}`;
    }
  }
  return null;
}

/** After connect: answer a bad response's request with an error naming the problem instead of passing it on. */
export function guardIncoming(transport: Transport, server: string): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<typeof deliver>[1]) => {
    const problem = responseProblem(message, server);
    const id = (message as { id?: unknown }).id;
    if (problem && (typeof id === 'string' || typeof id === 'number')) {
      deliver.call(transport, { jsonrpc: '2.0', id, error: { code: -32603, message: problem } }, extra);
      return;
    }
    deliver.call(transport, message, extra);
  };
}
