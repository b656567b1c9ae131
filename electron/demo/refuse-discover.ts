// `--legacy`: make a host that probes with `server/discover` (the 2026-07-28
// opening) fall back to the 2025 `initialize` handshake, as a server built
// before 2026 would. The probe is answered at the transport edge with
// "method not found" and never reaches the SDK, so the SDK's stdio entry
// sees `initialize` as the opening message and serves the legacy era.
import type { Transport } from '@modelcontextprotocol/server';

/** JSON-RPC "method not found". */
const METHOD_NOT_FOUND = -32601;

type Handler = NonNullable<Transport['onmessage']>;

/** Wraps `transport` in place so `server/discover` is refused; returns it. */
export function refuseDiscover<T extends Transport>(transport: T): T {
  let inner: Handler | undefined;
  const filtered: Handler = (message, extra) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method === 'server/discover') {
      if (m.id !== undefined) {
        void transport.send({
          jsonrpc: '2.0',
          id: m.id as string | number,
          error: {
            code: METHOD_NOT_FOUND,
            message: 'Method not found: server/discover (this server speaks the 2025-11-25 protocol; send initialize)',
          },
        });
      }
      return;
    }
    inner?.(message, extra);
  };
  // Whoever connects later (the SDK's stdio entry) assigns onmessage; the setter keeps the filter in front.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (inner ? filtered : undefined),
    set: (handler: Handler | undefined) => {
      inner = handler;
    },
  });
  return transport;
}
