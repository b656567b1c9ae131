// Builds the SDK transport for a configured server.
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isStdioEntry, type ServerEntry } from '../config/server-config';

/**
 * The SDK's 'auto' negotiation spawns a throw-away sibling process to probe
 * when the transport is exactly `StdioClientTransport`, and probes in place
 * on any subclass. Probing in place spawns each stdio server once, which is
 * what a host that starts user programs must do (a server may have side
 * effects at start-up, and it halves connect time).
 */
export class InPlaceStdioTransport extends StdioClientTransport {}

/** Lines of a stdio server's stderr kept to explain a failed start. */
const STDERR_TAIL_LINES = 20;

/** A transport plus what the host wants to know about it. */
export interface BuiltTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string[];
}

/** Create the transport for an entry. Server stderr is kept, not printed. */
export function createTransport(entry: ServerEntry): BuiltTransport {
  if (isStdioEntry(entry)) {
    const tail: string[] = [];
    const transport = new InPlaceStdioTransport({
      command: entry.command,
      args: entry.args ?? [],
      // The SDK's default environment is a safe subset (PATH, HOME, ...);
      // configured variables are added on top, as other hosts do.
      env: { ...getDefaultEnvironment(), ...(entry.env ?? {}) },
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) tail.push(line);
      tail.splice(0, Math.max(0, tail.length - STDERR_TAIL_LINES));
    });
    return { transport, stderrTail: () => (partial.trim() ? [...tail, partial] : [...tail]) };
  }
  const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
    ...(entry.headers ? { requestInit: { headers: entry.headers } } : {}),
  });
  return { transport, stderrTail: () => [] };
}
