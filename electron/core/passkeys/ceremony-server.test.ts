// What the ceremony server refuses before any browser is involved (the
// ceremonies themselves run in Chromium: test/browser/passkeys.test.ts).
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCeremonyServer, type CeremonyServer } from './ceremony-server';
import { PasskeyStore } from './passkey-store';
import { CEREMONY_CSP } from './ceremony-page';

let dir: string;
let server: CeremonyServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cs-ceremony-'));
  server = await startCeremonyServer({ store: await PasskeyStore.open(dir) });
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One request to the server's 127.0.0.1 port with the headers given (Host included). */
function send(path: string, headers: Record<string, string>, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const call = {
  server: { name: 'files', command: 'node files.mjs' },
  tool: 'delete',
  arguments: {},
  question: { message: 'Delete?', schema: {} },
  answer: { action: 'accept' },
};

describe('the ceremony server', () => {
  it('serves the page only for Host localhost:PORT, under its strict policy', async () => {
    const { url } = server.approve(server.verifier.issue(call));
    const path = new URL(url).pathname;
    const good = await send(path, { host: `localhost:${server.port}` });
    expect(good.status).toBe(200);
    expect(good.headers['content-security-policy']).toBe(CEREMONY_CSP);
    expect(good.text).not.toMatch(/files|delete/);
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port + 1}`, 'localhost', 'evil.example']) {
      const refused = await send(path, { host });
      expect(refused.status, host).toBe(421);
      expect(refused.text).toBe(
        `This page is valid only at http://localhost:${server.port}: a passkey cannot be used at an IP address or another name.`,
      );
    }
  });

  it('takes a result only from its own origin, and refuses one that is not an assertion', async () => {
    const ceremony = server.approve(server.verifier.issue(call));
    const path = `${new URL(ceremony.url).pathname}/result`;
    const host = `localhost:${server.port}`;
    const foreign = await send(path, { host, origin: 'http://localhost:1' }, 'POST', '{}');
    expect(foreign.status).toBe(403);
    const junk = await send(path, { host, origin: server.origin }, 'POST', '{"id":"x<y"}');
    expect(JSON.parse(junk.text)).toEqual({
      ok: false,
      message: expect.stringMatching(/^refused: this is not a passkey assertion \(id: /),
    });
    await expect(ceremony.result).rejects.toThrow(/^refused: this is not a passkey assertion/);
    // The ceremony ended with that result: nothing else is taken for it.
    expect((await send(path, { host, origin: server.origin }, 'POST', '{}')).status).toBe(404);
  });
});
