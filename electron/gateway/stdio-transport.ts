// The gateway's stdio transport toward the agent: the SDK's stdio server
// transport, written out so that each line is parsed once and a plain
// 2026-07-28 tools/call can go to the pass-through path (pass-through.ts)
// before the SDK server's machinery. Every other line is checked by the
// SDK's own JSON-RPC message schema (deserializeMessage), as before, and
// handed to the SDK. The same bound on unread input as the SDK's.
import {
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

/** What may take a parsed message before the SDK sees it (true: taken). */
export interface Interceptor {
  take(message: unknown): boolean;
  cancelled(message: unknown): boolean;
  close(): void;
}

const DONE = Promise.resolve();

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
