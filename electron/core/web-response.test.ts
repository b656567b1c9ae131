// The bridge from a web Response to node:http, over a real loopback socket:
// status and headers arrive as given, each chunk reaches the client while the
// body is still open (an SSE stream must not wait for its end), and a body
// with nothing in it ends the response.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { webHeaders, writeWebResponse } from './web-response';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

function serve(respond: () => Response): Promise<number> {
  server = createServer((_req, res) => void writeWebResponse(respond(), res));
  return new Promise((done) => server!.listen(0, '127.0.0.1', () => done((server!.address() as AddressInfo).port)));
}

function get(port: number): Promise<IncomingMessage> {
  return new Promise((done, fail) => request({ host: '127.0.0.1', port, path: '/' }, done).on('error', fail).end());
}

describe('writeWebResponse', () => {
  it('sends the status and headers, and ends a response without a body', async () => {
    const port = await serve(() => new Response(null, { status: 202, headers: { 'mcp-session-id': 's-1' } }));
    const res = await get(port);
    expect(res.statusCode).toBe(202);
    expect(res.headers['mcp-session-id']).toBe('s-1');
    const body: Buffer[] = [];
    for await (const chunk of res) body.push(chunk as Buffer);
    expect(Buffer.concat(body).length).toBe(0);
  });

  it('passes each chunk on while the body is still open', async () => {
    let push!: (text: string | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => (text === null ? controller.close() : controller.enqueue(new TextEncoder().encode(text)));
      },
    });
    const port = await serve(() => new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    // node:http sends the head with the first chunk, so the first one is pushed before the head is awaited.
    const head = get(port);
    push('data: one\n\n');
    const res = await head;
    expect(res.headers['content-type']).toBe('text/event-stream');
    const chunks = res[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toBe('data: one\n\n');
    push('data: two\n\n');
    expect(String((await chunks.next()).value)).toBe('data: two\n\n');
    push(null);
    expect((await chunks.next()).done).toBe(true);
  });
});

describe('webHeaders', () => {
  it('keeps every value of a repeated header and leaves out an absent one', () => {
    const headers = webHeaders({ 'mcp-session-id': 's-1', 'set-cookie': ['a=1', 'b=2'], 'x-none': undefined });
    expect(headers.get('mcp-session-id')).toBe('s-1');
    expect(headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(headers.has('x-none')).toBe(false);
  });
});
