// The IPC layer over the REAL HostService (no Electron): sender check,
// contract validation, the consent flow for links, and event forwarding.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../shared/elicitation/types';
import { HOST_EVENT_NAMES, INVOKE_CHANNEL } from '../../shared/host-api/names';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { HostService } from '../core/service/host-service';
import { createInvokeHandler, forwardHostEvents, registerHostIpc, type InvokeEventLike, type InvokeReply } from './ipc';
import { OpenExternalGate } from './open-external-gate';

const MAIN_ID = 1;
const fromWindow: InvokeEventLike = {
  sender: { id: MAIN_ID },
  senderFrame: { url: 'app://countersign/index.html', parent: null },
};

function urlQuestion(id: string, href: string): Question {
  return {
    id,
    mode: 'url',
    origin: { server: 'demo', era: 'modern', method: 'tools/call', name: 'connect', round: 1, key: 'k' },
    message: 'Sign in',
    url: analyzeUrl(href),
  };
}

describe('host IPC over the real HostService', () => {
  let dataDir: string;
  let service: HostService;
  let opened: string[];
  let gate: OpenExternalGate;
  let handler: ReturnType<typeof createInvokeHandler>;
  let logs: string[];
  const asks = new AbortController();

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-ipc-'));
    opened = [];
    logs = [];
    gate = new OpenExternalGate(
      async (url) => void opened.push(url),
      (l) => logs.push(l),
    );
    service = await HostService.create({ dataDir, openExternal: gate.openExternal, connectOnStart: false });
    service.log = (l) => logs.push(l);
    handler = createInvokeHandler({ service, gate, mainWebContentsId: () => MAIN_ID, log: (l) => logs.push(l) });
  });
  afterEach(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a well-formed request from the main frame', async () => {
    await expect(handler(fromWindow, 'listServers', {})).resolves.toEqual({ ok: true, value: [] });
    const settings = await handler(fromWindow, 'getSettings', {});
    expect(settings.ok && settings.value).toMatchObject({ maxRounds: expect.any(Number) });
  });

  it.each([
    ['another web contents', { sender: { id: 2 }, senderFrame: fromWindow.senderFrame }],
    ['a subframe', { sender: { id: MAIN_ID }, senderFrame: { url: 'app://countersign/index.html', parent: {} } }],
    ['a frame that is gone', { sender: { id: MAIN_ID }, senderFrame: null }],
    [
      'a foreign page in the window',
      { sender: { id: MAIN_ID }, senderFrame: { url: 'https://evil.example/', parent: null } },
    ],
  ])('refuses %s before anything runs', async (_label, event) => {
    const invoke = vi.spyOn(service, 'invoke');
    const reply = await handler(event, 'removeServer', { name: 'x' });
    expect(reply).toEqual({
      ok: false,
      error: { message: 'refused: this frame may not call the host', code: 'forbidden' },
    });
    expect(invoke).not.toHaveBeenCalled();
    expect(logs.some((l) => l.includes('refused IPC request'))).toBe(true);
  });

  it('refuses every request while there is no main window', async () => {
    const noWindow = createInvokeHandler({ service, gate, mainWebContentsId: () => undefined, log: () => undefined });
    expect((await noWindow(fromWindow, 'listServers', {})).ok).toBe(false);
  });

  it.each([
    ['an unknown method', 'deleteEverything', {}, /unknown host API method "deleteEverything"/],
    ['a non-string method', 42, {}, /unknown host API method 42/],
    ['a prototype key', '__proto__', {}, /unknown host API method/],
    ['extra fields', 'listServers', { evil: true }, /listServers: invalid/],
    ['a wrong type', 'removeServer', { name: 5 }, /removeServer: invalid name/],
    ['a missing field', 'answerQuestion', { questionId: 'q' }, /answerQuestion: invalid answer/],
    ['a bad enum', 'exportHistory', { filter: {}, format: 'xml' }, /exportHistory: invalid format/],
    ['params that are not an object', 'getSettings', 'all', /getSettings: invalid/],
    [
      'a malformed openQuestionUrl',
      'openQuestionUrl',
      { questionId: '', url: 'https://x' },
      /openQuestionUrl: invalid/,
    ],
  ])('rejects %s with the contract error', async (_label, method, params, message) => {
    const reply = await handler(fromWindow, method, params);
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.message).toMatch(message);
      expect(reply.error.code).toBe('protocol');
    }
  });

  it('sends the error details with the code, so the page reads the field instead of the sentence', async () => {
    const shape = await handler(fromWindow, 'removeServer', { name: 5 });
    expect(shape).toMatchObject({
      ok: false,
      error: { code: 'protocol', details: { method: 'removeServer', path: 'name', problem: expect.any(String) } },
    });
    const rule = await handler(fromWindow, 'addServer', { name: 'bad', entry: { url: 'ftp://x.example/' } });
    expect(rule).toMatchObject({
      ok: false,
      error: { code: 'config', details: { server: 'bad', field: 'url', problem: 'must be http(s), not ftp:' } },
    });
  });

  it("opens a URL question's link only through the consent the window's request gives", async () => {
    const answer = service.questions.ask(urlQuestion('q1', 'https://auth.example.com/start?x=1'), asks.signal);
    const reply = await handler(fromWindow, 'openQuestionUrl', { questionId: 'q1' });
    expect(reply).toEqual({ ok: true, value: { opened: true } });
    expect(opened).toEqual(['https://auth.example.com/start?x=1']);
    // The consent was used up: the service cannot open it again on its own.
    expect(gate.isConsented('https://auth.example.com/start?x=1')).toBe(false);
    await expect(gate.openExternal('https://auth.example.com/start?x=1')).rejects.toThrow(/did not consent/);
    await handler(fromWindow, 'answerQuestion', { questionId: 'q1', answer: { action: 'accept' } });
    await expect(answer).resolves.toMatchObject({ urlOpened: true });
  });

  it('a request from a foreign frame opens nothing, even for a real question', async () => {
    void service.questions.ask(urlQuestion('q2', 'https://auth.example.com/'), asks.signal).catch(() => undefined);
    const reply = await handler(
      { sender: { id: 9 }, senderFrame: { url: 'app://countersign/', parent: null } },
      'openQuestionUrl',
      { questionId: 'q2' },
    );
    expect(reply.ok).toBe(false);
    expect(opened).toEqual([]);
  });

  it('opens nothing for unknown questions or blocked links', async () => {
    void service.questions.ask(urlQuestion('q3', 'javascript:alert(1)'), asks.signal).catch(() => undefined);
    const blocked = await handler(fromWindow, 'openQuestionUrl', { questionId: 'q3' });
    expect(blocked).toMatchObject({ ok: true, value: { opened: false } });
    const unknown = await handler(fromWindow, 'openQuestionUrl', { questionId: 'nope' });
    expect(unknown).toMatchObject({ ok: true, value: { opened: false } });
    expect(opened).toEqual([]);
    expect(gate.isConsented('javascript:alert(1)')).toBe(false);
  });

  it('the gate refuses what a faulty service would open without consent', async () => {
    // A service that ignores its own checks and opens some other link.
    const rogue = {
      invoke: async (method: unknown) => {
        if (method === 'listQuestions') return [urlQuestion('q4', 'https://good.example/')];
        await gate.openExternal('https://evil.example/');
        return { opened: true };
      },
      on: service.on.bind(service),
    };
    const h = createInvokeHandler({ service: rogue, gate, mainWebContentsId: () => MAIN_ID, log: () => undefined });
    const reply = await h(fromWindow, 'openQuestionUrl', { questionId: 'q4' });
    expect(reply).toEqual({
      ok: false,
      error: { message: 'refused to open the link: the user did not consent to this exact URL' },
    });
    expect(opened).toEqual([]);
    expect(gate.isConsented('https://good.example/')).toBe(false);
  });

  it('the gate refuses a consented link with a forbidden scheme, whatever the service decided', async () => {
    const rogue = {
      invoke: async (method: unknown) => {
        if (method === 'listQuestions') return [urlQuestion('q5', 'file:///etc/passwd')];
        await gate.openExternal('file:///etc/passwd');
        return { opened: true };
      },
      on: service.on.bind(service),
    };
    const h = createInvokeHandler({ service: rogue, gate, mainWebContentsId: () => MAIN_ID, log: () => undefined });
    const reply = await h(fromWindow, 'openQuestionUrl', { questionId: 'q5' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.message).toMatch(/refused to open the link: .*file/);
    expect(opened).toEqual([]);
  });

  it('forwards every contract event, and stops when unsubscribed', async () => {
    const sent: Array<[string, unknown]> = [];
    const stop = forwardHostEvents(service, (name, payload) => sent.push([name, payload]));
    const q = urlQuestion('q6', 'https://a.example/');
    void service.questions.ask(q, asks.signal).catch(() => undefined);
    await service.invoke('updateSettings', { theme: 'dark' });
    expect(sent.map(([n]) => n)).toEqual(['questionAdded', 'settingsChanged']);
    expect(sent[0]![1]).toEqual(q);
    stop();
    await service.invoke('updateSettings', { theme: 'light' });
    expect(sent).toHaveLength(2);
  });

  it('subscribes to exactly the contract events', () => {
    const on = vi.fn(() => () => undefined);
    forwardHostEvents({ invoke: vi.fn(), on } as never, () => undefined);
    expect(on.mock.calls.map((c) => (c as unknown[])[0])).toEqual([...HOST_EVENT_NAMES]);
  });

  it('registers one handler on the invoke channel and removes it', () => {
    const ipcMain = { handle: vi.fn(), removeHandler: vi.fn() };
    const dispose = registerHostIpc(ipcMain, handler);
    expect(ipcMain.handle).toHaveBeenCalledWith(INVOKE_CHANNEL, handler);
    dispose();
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(INVOKE_CHANNEL);
  });
});
