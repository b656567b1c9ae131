import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { messageOf } from './host-error';

/** A loopback port that nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('messageOf', () => {
  it("names why Node's fetch failed, which its own message leaves out", async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(messageOf(error)).toMatch(/^fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
  });

  it('leaves other errors as they are', () => {
    expect(messageOf(new Error('boom', { cause: new Error('inner') }))).toBe('boom');
    expect(messageOf('plain words')).toBe('plain words');
  });
});
