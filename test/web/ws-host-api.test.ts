// The browser's HostApi client (renderer/src/api/ws-host-api.ts) against the
// real web shell and HostService, with `ws` as the WebSocket implementation
// (a subclass that sends the page's Origin, as a browser does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_METHOD_NAMES } from '../../shared/host-api/names';
import type { CallView, Question } from '../../shared/host-api/contract';
import { DEMO_SERVER_NAME } from '../../electron/demo/demo-servers';
import { startWebShell, type WebShell } from '../../electron/web/web-shell';
import {
  HostApiError,
  apiUrlFromLocation,
  createWsHostApi,
  tokenFromLocation,
  type ConnectionState,
  type WsHostApi,
} from '../../renderer/src/api/ws-host-api';
import { browserLikeWebSocket, eventually, makeRendererDir, parseShellUrl, startService } from './helpers';

describe('tokenFromLocation / apiUrlFromLocation', () => {
  const token = 'a'.repeat(20) + '-_' + 'Z'.repeat(21);
  it('reads the token from the fragment, or the query', () => {
    expect(tokenFromLocation({ hash: `#token=${token}`, search: '' })).toBe(token);
    expect(tokenFromLocation({ hash: '', search: `?token=${token}` })).toBe(token);
    expect(tokenFromLocation({ hash: `#view=history&token=${token}` })).toBe(token);
  });
  it('returns null for a missing or malformed token', () => {
    expect(tokenFromLocation({ hash: '', search: '' })).toBeNull();
    expect(tokenFromLocation({ hash: '#token=' })).toBeNull();
    expect(tokenFromLocation({ hash: '#token=abc' })).toBeNull();
    expect(tokenFromLocation({ hash: `#token=${token.slice(0, 30)}<script>` })).toBeNull();
  });
  it('builds the socket URL from the page location', () => {
    expect(apiUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:4100' })).toBe('ws://127.0.0.1:4100/api');
  });
});

describe('createWsHostApi against the real shell', () => {
  let renderer: ReturnType<typeof makeRendererDir>;
  let svc: Awaited<ReturnType<typeof startService>>;
  let shell: WebShell;
  let port: number;
  let token: string;
  const clients: WsHostApi[] = [];
  const client = (overrides: { token?: string; attempts?: number } = {}) => {
    const api = createWsHostApi(`ws://127.0.0.1:${port}/api`, overrides.token ?? token, {
      WebSocket: browserLikeWebSocket(`http://127.0.0.1:${port}`),
      initialBackoffMs: 20,
      maxBackoffMs: 100,
      ...(overrides.attempts ? { maxFailedAttempts: overrides.attempts } : {}),
    });
    clients.push(api);
    return api;
  };

  beforeAll(async () => {
    renderer = makeRendererDir();
    svc = await startService();
    shell = await startWebShell({ service: svc.service, rendererDir: renderer.rendererDir, log: () => undefined });
    ({ port, token } = parseShellUrl(shell.url));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await shell?.close();
    await svc?.close();
    renderer?.cleanup();
  });

  it('has a function for every host API method, and refuses unknown events', () => {
    const api = client();
    for (const m of HOST_METHOD_NAMES) expect(typeof api[m], m).toBe('function');
    expect(() => api.on('noSuchEvent' as never, () => undefined)).toThrow(/unknown host event/);
  });

  it('queues requests made before the socket opens and answers them once it does', async () => {
    const api = client();
    expect(api.connection).toBe('connecting');
    const [servers, settings] = await Promise.all([api.listServers({}), api.getSettings({})]);
    expect(api.connection).toBe('open');
    expect(servers.map((s) => s.name)).toContain(DEMO_SERVER_NAME);
    expect(settings.maxRounds).toBeGreaterThan(0);
  });

  it('runs a whole question through events: questionAdded, answerQuestion, callUpdated', async () => {
    const api = client();
    const questions: Question[] = [];
    const calls: CallView[] = [];
    const offQ = api.on('questionAdded', (q) => questions.push(q));
    api.on('callUpdated', (c) => calls.push(c));
    await eventually(
      async () => (await api.listServers({})).find((s) => s.name === DEMO_SERVER_NAME && s.status === 'connected'),
      'demo connected',
    );
    const { callId } = await api.callTool({
      server: DEMO_SERVER_NAME,
      tool: 'delete_time_entry',
      args: { entryId: 99 },
    });
    const q = await eventually(() => questions.find((x) => x.origin.name === 'delete_time_entry'), 'questionAdded');
    expect(await api.answerQuestion({ questionId: q.id, answer: { action: 'accept', content: {} } })).toEqual({
      accepted: true,
    });
    const done = await eventually(
      () => calls.find((c) => c.callId === callId && c.state === 'complete'),
      'callUpdated complete',
    );
    expect((done.result as { content: Array<{ text: string }> }).content[0]!.text).toBe('Deleted time entry 99.');
    offQ();
    await api.callTool({ server: DEMO_SERVER_NAME, tool: 'delete_time_entry', args: { entryId: 100 } });
    const pending = await eventually(
      async () => (await api.listQuestions({})).find((x) => x.origin.argumentsSummary?.includes('100')),
      'second question',
    );
    expect(questions.some((x) => x.id === pending.id)).toBe(false);
    await api.answerQuestion({ questionId: pending.id, answer: { action: 'decline' } });
  });

  it('rejects with the host error message and code', async () => {
    const api = client();
    const error = await api.callTool({ server: DEMO_SERVER_NAME } as never).catch((e) => e);
    expect(error).toBeInstanceOf(HostApiError);
    expect(error).toMatchObject({ code: 'protocol', message: expect.stringMatching(/^callTool: invalid tool/) });
    await expect(api.reconnectServer({ name: 'nope' })).rejects.toMatchObject({
      code: 'config',
      message: 'no server named "nope" is configured',
    });
  });

  it('carries the host error details end to end (the server form reads its field from them)', async () => {
    const api = client();
    await expect(api.removeServer({ name: 5 } as never)).rejects.toMatchObject({
      code: 'protocol',
      details: { method: 'removeServer', path: 'name', problem: expect.any(String) },
    });
    await expect(api.addServer({ name: 'bad', entry: { url: 'ftp://x.example/' } })).rejects.toMatchObject({
      code: 'config',
      details: { server: 'bad', field: 'url', problem: 'must be http(s), not ftp:' },
    });
  });

  it('gives up with a clear error when the token is wrong', async () => {
    const api = client({ token: 'B'.repeat(43), attempts: 3 });
    const states: ConnectionState[] = [];
    api.onConnection((s) => states.push(s));
    await expect(api.listServers({})).rejects.toThrow(/cannot reach Countersign .* still running/);
    expect(api.connection).toBe('failed');
    expect(states).toContain('reconnecting');
    await expect(api.getSettings({})).rejects.toThrow(/getSettings: cannot reach Countersign/);
  });

  it('rejects a request in flight when the shell goes away, then reconnects to a restarted shell', async () => {
    const api = client();
    const states: ConnectionState[] = [];
    api.onConnection((s) => states.push(s));
    await api.listServers({});
    // reconnectServer restarts a stdio process: still in flight when the shell closes.
    const inFlight = api.reconnectServer({ name: DEMO_SERVER_NAME }).then(
      () => new Error('it was answered'),
      (error: unknown) => error,
    );
    await shell.close();
    expect(await inFlight).toHaveProperty(
      'message',
      'the connection to Countersign closed before it answered reconnectServer; it may or may not have been carried out',
    );
    await eventually(() => states.includes('reconnecting'), 'reconnecting');
    shell = await startWebShell({
      service: svc.service,
      port,
      token,
      rendererDir: renderer.rendererDir,
      log: () => undefined,
    });
    await eventually(() => api.connection === 'open' || undefined, 'reopened');
    expect((await api.listServers({})).length).toBe(2);
    const settings: unknown[] = [];
    api.on('settingsChanged', (s) => settings.push(s));
    await api.updateSettings({ theme: 'dark' });
    await eventually(() => settings.length > 0 || undefined, 'settingsChanged after the reconnect');
  });

  it('close() rejects what is pending and refuses new requests', async () => {
    const api = client();
    const pending = api.listServers({});
    api.close();
    await expect(pending).rejects.toThrow('listServers: the connection to Countersign was closed');
    await expect(api.getSettings({})).rejects.toThrow(/closed/);
    expect(api.connection).toBe('closed');
  });
});
