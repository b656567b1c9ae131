// The gateway over stdio: what an agent launches. The SDK's serveStdio reads
// the agent's first message and pins the era (2026-07-28 or the legacy
// handshake) for the connection; the gateway answers both the same way.
import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { routeConsoleThroughRedaction } from '../core/console-redaction';
import { createAgentServer } from './agent-server';
import { GatewayStdioTransport, PassThrough } from './pass-through';
import type { LegacyTaskHandles } from './agent-tasks';
import type { Gateway } from './gateway';

/** A running stdio connection. */
export interface StdioGateway {
  /** Settles when the agent closed stdin (or the transport failed). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Pass-through transport that also reports when the inner one closes
 * (serveStdio owns the callbacks) and puts legacy task bodies in place on the way out.
 */
function observeClose(inner: Transport, onClosed: () => void, handles: LegacyTaskHandles): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(handles.rewrite(message), options),
    close: () => inner.close(),
  };
  if (inner.setProtocolVersion) outer.setProtocolVersion = (v) => inner.setProtocolVersion!(v);
  inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => {
    outer.onclose?.();
    onClosed();
  };
  return outer;
}

/**
 * On stdio, stdout IS the MCP channel: one stray console.log from any library
 * (the SDK itself logs with console.debug) would corrupt it. Console output
 * goes to the gateway's log (stderr) instead, redacted like everywhere.
 */
function keepStdoutForMcp(log: (line: string) => void): void {
  routeConsoleThroughRedaction(log);
}

/** Serve the gateway on `transport` (default: this process's stdin/stdout, guarded). */
export function serveGatewayStdio(gateway: Gateway, transport?: Transport): StdioGateway {
  // One agent per process: every instance of this connection shares its label.
  const connection = `stdio-${gateway.runId}`;
  if (!transport) {
    keepStdoutForMcp(gateway.log);
    const own = new GatewayStdioTransport();
    // Plain 2026-07-28 tool calls skip the SDK server (pass-through.ts); the rest goes to it.
    own.interceptor = new PassThrough(gateway, connection, (message) => {
      own.send(message).catch((e: unknown) => gateway.log(`countersign gateway: ${String(e)}`));
    });
    transport = own;
  }
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const handle = serveStdio(() => createAgentServer(gateway, connection), {
    transport: observeClose(transport, markClosed, gateway.legacyTaskHandles),
    onerror: (e) => gateway.log(`countersign gateway: ${e.message}`),
  });
  return {
    closed,
    close: async () => {
      await handle.close();
      markClosed();
    },
  };
}
