// The loopback web shell end to end: a real HostService with the shipped
// demo server over stdio, the shell on a free port, and `ws` playing the
// browser tab. The wire protocol is spoken by hand here, frame by frame.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallView, HostEvents, ServerView } from '../../shared/host-api/contract';
import type { Question } from '../../shared/elicitation/types';
import { HostService } from '../../electron/core/service/host-service';
import { DEMO_LEGACY_SERVER_NAME, DEMO_SERVER_NAME } from '../../electron/demo/demo-servers';
import { startWebShell, type WebShell } from '../../electron/web/web-shell';
import { securityHeaders } from '../../electron/web/static-files';
import { SECRET, authorizeInBrowser, eventually, makeRendererDir, parseShellUrl, startService } from './helpers';

type Frame = { id?: unknown; result?: any; error?: { message: string; code?: string }; event?: string; payload?: any };

/** One tab speaking the raw wire protocol. */
class Tab {
  readonly frames: Frame[] = [];
  private nextId = 1;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
  }
  async request(method: string, params: unknown = {}): Promise<Frame> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return eventually(() => this.frames.find((f) => f.id === id), `reply to ${method}`);
  }
  async result<T>(method: string, params: unknown = {}): Promise<T> {
    const reply = await this.request(method, params);
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  }
  event<E extends keyof HostEvents>(
    event: E,
    where: (p: HostEvents[E]) => boolean,
    what: string = event,
  ): Promise<HostEvents[E]> {
    return eventually(() => this.frames.find((f) => f.event === event && where(f.payload))?.payload, what);
  }
}

/** Try an upgrade; resolves with the open socket or the HTTP status it was refused with. */
function upgrade(
  url: string,
  protocols: string[],
  headers: { origin?: string; host?: string } = {},
): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, {
      ...(headers.origin ? { origin: headers.origin } : {}),
      ...(headers.host ? { headers: { host: headers.host } } : {}),
    });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      res.resume();
    });
    ws.once('error', () => resolve({ status: -1 }));
  });
}

/** A raw HTTP GET (the path is sent exactly as given, unlike fetch). */
function rawGet(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('loopback web shell', () => {
  let renderer: ReturnType<typeof makeRendererDir>;
  let svc: Awaited<ReturnType<typeof startService>>;
  let shell: WebShell;
  let port: number;
  let token: string;
  let origin: string;
  let api: string;
  const tabs: WebSocket[] = [];
  const openTab = async () => {
    const { ws, status } = await upgrade(api, ['countersign.v1', `countersign.token.${token}`], { origin });
    if (!ws) throw new Error(`upgrade refused with ${status}`);
    tabs.push(ws);
    return new Tab(ws);
  };

  beforeAll(async () => {
    renderer = makeRendererDir();
    svc = await startService();
    shell = await startWebShell({
      service: svc.service,
      port: 0,
      rendererDir: renderer.rendererDir,
      openBrowser: false,
      log: () => undefined,
    });
    ({ port, token } = parseShellUrl(shell.url));
    origin = `http://127.0.0.1:${port}`;
    api = `ws://127.0.0.1:${port}/api`;
  });
  afterAll(async () => {
    for (const ws of tabs) ws.terminate();
    await shell?.close();
    await svc?.close();
    renderer?.cleanup();
  });

  describe('static files', () => {
    it('prints a 127.0.0.1 URL with a 32-byte base64url token in the fragment', () => {
      expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    });

    it('serves the renderer with the right content types and the security headers', async () => {
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        `connect-src ws://127.0.0.1:${port}`,
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp.split('; ')).toContain(directive);
      }
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(await page.text()).toContain('<title>Countersign</title>');

      const js = await fetch(`${origin}/assets/app.js`);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await fetch(`${origin}/assets/app.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect((await fetch(`${origin}/assets/missing.js`)).status).toBe(404);
      // Client-side routes get the app.
      expect(await (await fetch(`${origin}/history`)).text()).toContain('<title>Countersign</title>');
      const head = await rawGet(port, '/assets/app.js', undefined, 'HEAD');
      expect(head).toMatchObject({ status: 200, body: '' });
      expect((await rawGet(port, '/', undefined, 'POST')).status).toBe(405);
      expect((await rawGet(port, '/api')).status).toBe(426);
    });

    it('refuses path traversal, hidden files and symlinks that lead out of the renderer folder', async () => {
      for (const path of [
        '/../secret.txt',
        '/%2e%2e/secret.txt',
        '/assets/..%2f..%2fsecret.txt',
        '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
        '/..%5csecret.txt',
        '/%2fetc%2fpasswd',
        '/assets/leak.txt',
        '/.env',
        '/%00index.html',
        '/%E0%A4%A',
      ]) {
        const res = await rawGet(port, path);
        expect([400, 403, 404], `${path} -> ${res.status}`).toContain(res.status);
        expect(res.body).not.toContain(SECRET);
        // The error pages carry the same policy as the app itself, not just some header.
        expect(res.headers['content-security-policy']).toBe(
          securityHeaders(origin, shell.appOrigin)['Content-Security-Policy'],
        );
      }
      expect((await rawGet(port, '/../secret.txt')).status).toBe(403);
      expect((await rawGet(port, '/assets/leak.txt')).status).toBe(403);
    });

    it('answers 403 to requests whose Host is not exactly 127.0.0.1:PORT (DNS rebinding)', async () => {
      for (const host of [`localhost:${port}`, `evil.example:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`]) {
        const res = await rawGet(port, '/', host);
        expect(res.status, host).toBe(403);
        expect(res.body).not.toContain('<title>');
      }
    });
  });

  describe('socket admission', () => {
    const protocols = () => ['countersign.v1', `countersign.token.${token}`];

    it('accepts the right token, Origin and Host, and selects the wire protocol (never the token)', async () => {
      const { ws } = await upgrade(api, protocols(), { origin });
      expect(ws?.protocol).toBe('countersign.v1');
      ws?.close();
    });

    it('refuses a missing or wrong token', async () => {
      expect((await upgrade(api, ['countersign.v1'], { origin })).status).toBe(403);
      expect((await upgrade(api, ['countersign.v1', `countersign.token.${'A'.repeat(43)}`], { origin })).status).toBe(
        403,
      );
      expect(
        (await upgrade(api, ['countersign.v1', `countersign.token.${token.slice(0, -1)}`], { origin })).status,
      ).toBe(403);
      expect((await upgrade(api, [`countersign.token.${token}`], { origin })).status).toBe(403);
      expect((await upgrade(`${api}?token=${token}`, ['countersign.v1'], { origin })).status).toBe(403);
    });

    it('refuses a foreign or missing Origin', async () => {
      for (const bad of [`http://localhost:${port}`, `http://127.0.0.1:${port + 1}`, 'https://evil.example', 'null']) {
        expect((await upgrade(api, protocols(), { origin: bad })).status, bad).toBe(403);
      }
      expect((await upgrade(api, protocols(), {})).status).toBe(403);
    });

    it('refuses a foreign Host and an unknown socket path', async () => {
      expect((await upgrade(api, protocols(), { origin, host: `localhost:${port}` })).status).toBe(403);
      expect((await upgrade(`ws://127.0.0.1:${port}/other`, protocols(), { origin })).status).toBe(404);
    });
  });

  describe('wire protocol', () => {
    it('answers malformed frames with an error reply and keeps the socket usable', async () => {
      const tab = await openTab();
      const before = tab.frames.length;
      tab.ws.send('this is not json');
      tab.ws.send('[1, 2]');
      tab.ws.send(JSON.stringify({ method: 'listServers' }));
      tab.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      await eventually(() => tab.frames.length - before >= 4 || undefined, 'four error replies');
      const errors = tab.frames.slice(before).filter((f) => f.id === null);
      expect(errors.map((f) => f.error?.message)).toEqual([
        'malformed frame: not JSON',
        'malformed frame: expected a JSON object {id, method, params}',
        'malformed frame: "id" must be a non-empty string or an integer',
        'binary frames are not supported: send JSON text',
      ]);
      expect((await tab.request('noSuchMethod')).error).toMatchObject({
        code: 'protocol',
        message: expect.stringContaining('unknown host API method'),
      });
      expect((await tab.request('callTool', { server: DEMO_SERVER_NAME })).error?.message).toMatch(
        /^callTool: invalid tool/,
      );
      expect((await tab.request('listServers', { extra: 1 })).error?.code).toBe('protocol');
      const noMethod = await (async () => {
        tab.ws.send(JSON.stringify({ id: 'x1', method: 42 }));
        return eventually(() => tab.frames.find((f) => f.id === 'x1'), 'reply x1');
      })();
      expect(noMethod.error?.message).toBe('malformed frame: "method" must be a string');
      expect(Array.isArray(await tab.result('listServers'))).toBe(true);
    });

    it('closes a socket that sends a frame over 5 MB', async () => {
      const tab = await openTab();
      const closed = new Promise<number>((resolve) => tab.ws.once('close', (code) => resolve(code)));
      tab.ws.send(
        JSON.stringify({ id: 1, method: 'importServers', params: { json: 'x'.repeat(5 * 1024 * 1024 + 10) } }),
      );
      expect(await closed).toBe(1009);
      // The shell itself is unharmed.
      const again = await openTab();
      expect(Array.isArray(await again.result('listServers'))).toBe(true);
    });
  });

  describe('the app through the socket', () => {
    it('lists the demo servers, connected in both eras', async () => {
      const tab = await openTab();
      const servers = await eventually(async () => {
        const list = await tab.result<ServerView[]>('listServers');
        return list.every((s) => s.status === 'connected') && list.length === 2 ? list : undefined;
      }, 'both demo servers connected');
      expect(servers.find((s) => s.name === DEMO_SERVER_NAME)).toMatchObject({
        status: 'connected',
        era: 'modern',
        protocolVersion: '2026-07-28',
      });
      expect(servers.find((s) => s.name === DEMO_LEGACY_SERVER_NAME)).toMatchObject({
        status: 'connected',
        era: 'legacy',
      });
    });

    it('delete_time_entry: questionAdded reaches every tab, a decline ends the call with the decline text', async () => {
      const tab = await openTab();
      const other = await openTab();
      const { callId } = await tab.result<{ callId: string }>('callTool', {
        server: DEMO_SERVER_NAME,
        tool: 'delete_time_entry',
        args: { entryId: 17 },
      });
      const question = await tab.event('questionAdded', (q) => q.origin.name === 'delete_time_entry');
      expect(question).toMatchObject({
        mode: 'form',
        message: expect.stringContaining('17'),
        requestedSchema: { type: 'object', properties: {} },
        origin: { server: DEMO_SERVER_NAME, era: 'modern' },
      });
      await other.event('questionAdded', (q) => q.id === question.id, 'the question on the second tab');
      expect((await tab.result<Question[]>('listQuestions')).map((q) => q.id)).toContain(question.id);

      expect(await tab.result('answerQuestion', { questionId: question.id, answer: { action: 'decline' } })).toEqual({
        accepted: true,
      });
      await other.event('questionRemoved', (p) => p.questionId === question.id && p.reason === 'answered');
      const done = await tab.event('callUpdated', (c: CallView) => c.callId === callId && c.state !== 'running');
      expect(done.state).toBe('complete');
      expect((done.result as { content: Array<{ text: string }> }).content[0]!.text).toBe(
        'Declined by the user: nothing was deleted.',
      );
      // Answering twice is refused with a clear error.
      expect(
        (await tab.request('answerQuestion', { questionId: question.id, answer: { action: 'accept' } })).error?.message,
      ).toMatch(/not waiting for an answer/);
    });

    it('connect_calendar: openQuestionUrl opens exactly the link, and after "Authorize" an accept completes the call', async () => {
      const tab = await openTab();
      const { callId } = await tab.result<{ callId: string }>('callTool', {
        server: DEMO_SERVER_NAME,
        tool: 'connect_calendar',
        args: { calendar: 'work' },
      });
      const question = await tab.event('questionAdded', (q) => q.origin.name === 'connect_calendar');
      if (question.mode !== 'url') throw new Error('expected a URL question');
      expect(question.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/consent\//);
      svc.opened.length = 0;
      expect(await tab.result('openQuestionUrl', { questionId: question.id })).toEqual({ opened: true });
      expect(svc.opened).toEqual([question.url.href]);

      await authorizeInBrowser(question.url.href);
      await tab.result('answerQuestion', { questionId: question.id, answer: { action: 'accept' } });
      const done = await tab.event('callUpdated', (c: CallView) => c.callId === callId && c.state !== 'running');
      expect(done).toMatchObject({
        state: 'complete',
        result: { content: [{ type: 'text', text: 'Connected the work calendar (authorized in the browser).' }] },
      });
    });

    it('the legacy demo asks through the same socket (server-to-client elicitation/create)', async () => {
      const tab = await openTab();
      const { callId } = await tab.result<{ callId: string }>('callTool', {
        server: DEMO_LEGACY_SERVER_NAME,
        tool: 'delete_time_entry',
        args: { entryId: 3 },
      });
      const question = await tab.event('questionAdded', (q) => q.origin.server === DEMO_LEGACY_SERVER_NAME);
      expect(question.origin.era).toBe('legacy');
      await tab.result('answerQuestion', { questionId: question.id, answer: { action: 'cancel' } });
      const done = await tab.event('callUpdated', (c: CallView) => c.callId === callId && c.state !== 'running');
      expect((done.result as { content: Array<{ text: string }> }).content[0]!.text).toBe(
        'Cancelled (dialog dismissed): nothing was deleted.',
      );
    });

    it('cancelCall withdraws the open question from every tab', async () => {
      const tab = await openTab();
      const { callId } = await tab.result<{ callId: string }>('callTool', {
        server: DEMO_SERVER_NAME,
        tool: 'deploy',
        args: { service: 'api' },
      });
      const question = await tab.event('questionAdded', (q) => q.origin.name === 'deploy');
      expect(await tab.result('cancelCall', { callId })).toEqual({ cancelled: true });
      await tab.event('questionRemoved', (p) => p.questionId === question.id && p.reason === 'call-cancelled');
      expect(
        (await tab.event('callUpdated', (c: CallView) => c.callId === callId && c.state !== 'running')).state,
      ).toBe('cancelled');
    });
  });
});

describe('startWebShell refuses to start without a built renderer', () => {
  it('names the missing index.html and the build command', async () => {
    await expect(
      startWebShell({
        service: { invoke: async () => null, on: () => () => undefined },
        rendererDir: '/nonexistent/renderer',
      }),
    ).rejects.toThrow(/npx vite build/);
  });
});

describe('idle sockets', () => {
  it('closes a socket that stops answering pings, and keeps one that answers', async () => {
    const renderer = makeRendererDir();
    const dataDir = mkdtempSync(join(tmpdir(), 'countersign-data-'));
    const service = await HostService.create({
      dataDir,
      openExternal: async () => undefined,
      firstStartServers: {},
      connectOnStart: false,
    });
    const shell = await startWebShell({
      service,
      rendererDir: renderer.rendererDir,
      heartbeatMs: 100,
      log: () => undefined,
    });
    try {
      const { port, token } = parseShellUrl(shell.url);
      const open = (autoPong: boolean) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, ['countersign.v1', `countersign.token.${token}`], {
            origin: `http://127.0.0.1:${port}`,
            autoPong,
          });
          ws.once('open', () => resolve(ws)).once('error', reject);
        });
      const silent = await open(false);
      const lively = await open(true);
      const closedAt = await new Promise<number>((resolve) => silent.once('close', () => resolve(Date.now())));
      expect(closedAt).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(lively.readyState).toBe(WebSocket.OPEN);
      lively.close();
    } finally {
      await shell.close();
      await service.close();
      renderer.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
