// The main process wiring with Electron mocked and the REAL HostService:
// lifecycle order, single-instance lock, the window's options and URL,
// IPC, hardening, attention and the openExternal path.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../shared/elicitation/types';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/host-api/names';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { JournalHistory } from '../core/service/journal-history';
import { HostService } from '../core/service/host-service';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-protocol';
import { FakeBrowserWindow, FakeNotification, FakeTray, resetFakeClasses, sharedFake } from './testing/electron-fake';
import { mainWindowOptions } from './window-options';
import { fixtureCommand } from '../../test/fixtures/spawn-fixture';

vi.mock('electron', async () => (await import('./testing/electron-fake')).sharedFake.module);

const { module: electron, handlers, protocolHandlers } = sharedFake;
const { runMain } = await import('./app-main');

function urlQuestion(id: string, href: string): Question {
  return {
    id,
    mode: 'url',
    origin: { server: 'demo', era: 'modern', method: 'tools/call', name: 't', round: 1, key: 'k' },
    message: 'm',
    url: analyzeUrl(href),
  };
}

describe('main process wiring', () => {
  let dataDir: string;
  let service: HostService | undefined;
  const savedEnv = process.env.COUNTERSIGN_DATA_DIR;

  beforeEach(async () => {
    vi.clearAllMocks();
    resetFakeClasses();
    electron.app.removeAllListeners();
    electron.session.defaultSession.removeAllListeners();
    handlers.clear();
    protocolHandlers.clear();
    electron.app.isPackaged = false;
    electron.app.requestSingleInstanceLock.mockReturnValue(true);
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-main-'));
    process.env.COUNTERSIGN_DATA_DIR = dataDir;
    service = undefined;
    const create = HostService.create.bind(HostService);
    vi.spyOn(HostService, 'create').mockImplementation(
      async (options) => (service = await create({ ...options, connectOnStart: false })),
    );
  });
  afterEach(async () => {
    // Quit as Electron would, so the approval channel stops watching (and re-binding) its socket
    // before the data folder is removed. A test that already quit has closed everything.
    if (electron.app.listenerCount('will-quit') > 0 && electron.app.quit.mock.calls.length === 0) {
      electron.app.emit('will-quit', { preventDefault: () => undefined });
      await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    }
    vi.restoreAllMocks();
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (savedEnv === undefined) delete process.env.COUNTERSIGN_DATA_DIR;
    else process.env.COUNTERSIGN_DATA_DIR = savedEnv;
  });

  const window = () => FakeBrowserWindow.instances[0]!;
  const fromWindow = () => ({
    sender: { id: window().webContents.id },
    senderFrame: { url: APP_INDEX_URL, parent: null },
  });
  const invoke = (event: unknown, method: string, params: unknown) =>
    handlers.get(INVOKE_CHANNEL)!(event, method, params) as Promise<unknown>;

  it('quits at once when another instance holds the lock', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValue(false);
    await runMain();
    expect(electron.app.quit).toHaveBeenCalledOnce();
    expect(electron.app.whenReady).not.toHaveBeenCalled();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    expect(HostService.create).not.toHaveBeenCalled();
  });

  it("does the before-'ready' work before waiting for ready", async () => {
    const order: string[] = [];
    electron.app.whenReady.mockImplementationOnce(async () => void order.push('whenReady'));
    electron.protocol.registerSchemesAsPrivileged.mockImplementationOnce(() => void order.push('registerSchemes'));
    electron.app.enableSandbox.mockImplementationOnce(() => void order.push('enableSandbox'));
    electron.app.setPath.mockImplementation((name: string) => void order.push(`setPath ${name}`));
    electron.app.requestSingleInstanceLock.mockImplementationOnce(() => (order.push('lock'), true));
    await runMain();
    expect(order).toEqual([
      'setPath userData',
      'setPath sessionData',
      'lock',
      'enableSandbox',
      'registerSchemes',
      'whenReady',
    ]);
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES },
    ]);
    expect(electron.app.setPath).toHaveBeenCalledWith('userData', dataDir);
    expect(electron.app.setPath).toHaveBeenCalledWith('sessionData', join(dataDir, 'chromium'));
    expect(HostService.create).toHaveBeenCalledWith(expect.objectContaining({ dataDir }));
  });

  it('opens one hardened window on the app origin', async () => {
    await runMain();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    expect(window().options).toEqual(
      mainWindowOptions({
        preloadPath: join('/fake/app', 'dist', 'electron', 'preload.cjs'),
        iconPath: join('/fake/app', 'dist', 'electron', 'icons', 'window.png'),
        dark: false,
        devTools: true,
      }),
    );
    expect(window().loadURL).toHaveBeenCalledWith(APP_INDEX_URL);
    expect(window().show).not.toHaveBeenCalled();
    window().emit('ready-to-show');
    expect(window().show).toHaveBeenCalledOnce();
  });

  it('turns DevTools off and drops the develop menu when packaged', async () => {
    electron.app.isPackaged = true;
    await runMain();
    expect((window().options.webPreferences as { devTools: boolean }).devTools).toBe(false);
    expect(electron.Menu.setApplicationMenu).toHaveBeenCalledWith(null); // Linux, packaged: no menu bar
  });

  it('serves the renderer through the app:// handler and hardens the session', async () => {
    await runMain();
    expect(protocolHandlers.has(APP_SCHEME)).toBe(true);
    const res = (await protocolHandlers.get(APP_SCHEME)!({ url: 'app://evil/x', method: 'GET' })) as Response;
    expect(res.status).toBe(403);
    const request = electron.session.defaultSession.setPermissionRequestHandler.mock.calls[0]![0] as (
      w: unknown,
      p: string,
      cb: (g: boolean) => void,
    ) => void;
    const callback = vi.fn();
    request({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(electron.session.defaultSession.webRequest.onBeforeRequest).toHaveBeenCalled();
  });

  it("shows MCP Apps: declares them, and serves an app's document once from app://mcp-apps for its frame", async () => {
    const apps = fixtureCommand('apps');
    const create = vi.mocked(HostService.create).getMockImplementation()!;
    vi.mocked(HostService.create).mockImplementation((options) =>
      create({ ...options, firstStartServers: { apps: { command: apps.command, args: apps.args } } }),
    );
    await runMain();
    expect(HostService.create).toHaveBeenCalledWith(expect.objectContaining({ rendersApps: true }));
    const reply = (await invoke(fromWindow(), 'openApp', { server: 'apps', tool: 'show_greeting', callId: 'c1' })) as {
      ok: boolean;
      value: { app: { documentUrl: string; server: string } };
    };
    expect(reply.ok, JSON.stringify(reply)).toBe(true);
    const { app } = reply.value;
    expect(app.server).toBe('apps');
    expect(app.documentUrl).toMatch(/^app:\/\/mcp-apps\/app\/[A-Za-z0-9_-]{22}$/);
    const serve = protocolHandlers.get(APP_SCHEME)!;
    const res = (await serve({ url: app.documentUrl, method: 'GET' })) as Response;
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<html/i);
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors app://countersign');
    // Once: a reload, or anything else that learnt the address, gets nothing.
    expect(((await serve({ url: app.documentUrl, method: 'GET' })) as Response).status).toBe(404);
    // The renderer's own files are still served beside it.
    expect(((await serve({ url: 'app://countersign/nothing-here.js', method: 'GET' })) as Response).status).toBe(404);
  });

  it('hardens every web contents Electron creates', async () => {
    await runMain();
    const contents = Object.assign(new (await import('node:events')).EventEmitter(), {
      setWindowOpenHandler: vi.fn(),
      setWebRTCIPHandlingPolicy: vi.fn(),
    });
    electron.app.emit('web-contents-created', {}, contents);
    const handler = contents.setWindowOpenHandler.mock.calls[0]![0] as (d: { url: string }) => unknown;
    expect(handler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const nav = { url: 'https://evil.example/', preventDefault: vi.fn() };
    contents.emit('will-navigate', nav);
    expect(nav.preventDefault).toHaveBeenCalled();
  });

  it('answers IPC from the window and refuses other senders and bad params', async () => {
    await runMain();
    await expect(invoke(fromWindow(), 'listServers', {})).resolves.toEqual({ ok: true, value: [] });
    await expect(invoke({ ...fromWindow(), sender: { id: 999 } }, 'listServers', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    await expect(invoke(fromWindow(), 'listServers', { extra: 1 })).resolves.toMatchObject({
      ok: false,
      error: { code: 'protocol' },
    });
  });

  it('forwards host events to the window on the event channel', async () => {
    await runMain();
    await invoke(fromWindow(), 'updateSettings', { theme: 'dark' });
    expect(window().webContents.send).toHaveBeenCalledWith(
      EVENT_CHANNEL,
      'settingsChanged',
      expect.objectContaining({ theme: 'dark' }),
    );
  });

  it('opens a link only through openQuestionUrl, as a private launcher page given to shell.openPath', async () => {
    await runMain();
    const link = 'https://auth.example.com/x?session=s3cr3t';
    let page = '';
    electron.shell.openPath.mockImplementationOnce(async (path: string) => {
      page = readFileSync(path, 'utf8');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
      return '';
    });
    const asked = new AbortController();
    void service!.questions.ask(urlQuestion('q1', link), asked.signal).catch(() => undefined);
    expect(electron.shell.openPath).not.toHaveBeenCalled();
    await expect(invoke(fromWindow(), 'openQuestionUrl', { questionId: 'q1' })).resolves.toEqual({
      ok: true,
      value: { opened: true },
    });
    // On Linux shell.openExternal(url) runs `xdg-open <url>`, readable by every user: never used.
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
    expect(electron.shell.openPath).toHaveBeenCalledOnce();
    const path = electron.shell.openPath.mock.calls[0]![0];
    expect(path).toMatch(/open-countersign\.html$/);
    expect(path).not.toContain('s3cr3t');
    expect(page).toContain(`url=${link}"`);
    asked.abort();
    // Quitting removes the page (its bounded lifetime has not run out yet).
    expect(existsSync(path)).toBe(true);
    electron.app.emit('will-quit', { preventDefault: () => undefined });
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('tells the human when the system cannot open the launcher page', async () => {
    await runMain();
    electron.shell.openPath.mockResolvedValueOnce('no application is associated');
    const asked = new AbortController();
    void service!.questions.ask(urlQuestion('q1', 'https://auth.example.com/x'), asked.signal).catch(() => undefined);
    await expect(invoke(fromWindow(), 'openQuestionUrl', { questionId: 'q1' })).resolves.toMatchObject({
      ok: false,
    });
    const path = electron.shell.openPath.mock.calls[0]![0];
    expect(existsSync(dirname(path))).toBe(false);
    asked.abort();
  });

  it('notifies and badges when a question arrives while the window is hidden; clicking brings it back', async () => {
    await runMain();
    expect(FakeTray.instances).toHaveLength(1);
    const asked = new AbortController();
    void service!.questions.ask(urlQuestion('q1', 'https://a.example/'), asked.signal).catch(() => undefined);
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(1);
    expect(FakeNotification.instances).toHaveLength(1);
    const note = FakeNotification.instances[0]!;
    expect(note.options.title).toBe('Countersign: a question is waiting');
    expect(note.show).toHaveBeenCalled();
    expect(window().flashFrame).toHaveBeenLastCalledWith(true);
    note.emit('click');
    expect(window().show).toHaveBeenCalled();
    expect(window().focus).toHaveBeenCalled();
    asked.abort();
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(0);
  });

  it('does not notify while the human is looking at the window', async () => {
    await runMain();
    window().show();
    window().focus();
    const asked = new AbortController();
    void service!.questions.ask(urlQuestion('q1', 'https://a.example/'), asked.signal).catch(() => undefined);
    expect(FakeNotification.instances).toHaveLength(0);
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(1);
    asked.abort();
  });

  it('hides instead of closing until the app quits', async () => {
    await runMain();
    window().show();
    expect(window().userCloses()).toBe(true);
    expect(window().hide).toHaveBeenCalled();
    electron.app.emit('before-quit');
    expect(window().userCloses()).toBe(false);
  });

  it('closing the window answers nothing; an answer is the human’s, with the window it came from', async () => {
    await runMain();
    const asked = new AbortController();
    const first = service!.questions.ask(urlQuestion('q1', 'https://a.example/'), asked.signal);
    window().show();
    expect(window().userCloses()).toBe(true);
    expect(service!.questions.list().map((q) => q.id)).toEqual(['q1']);
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(1);
    // Back from the tray: the same question, answered there.
    FakeNotification.instances.at(-1)?.emit('click');
    await expect(
      invoke(fromWindow(), 'answerQuestion', { questionId: 'q1', answer: { action: 'decline' } }),
    ).resolves.toMatchObject({ ok: true });
    await expect(first).resolves.toEqual({
      answer: { action: 'decline' },
      decidedBy: 'human',
      decidedByDetail: 'window 1',
      urlOpened: false,
    });
    // A window that was destroyed and made anew is another window.
    window().destroyed = true;
    window().emit('closed');
    electron.app.emit('second-instance');
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    const second = service!.questions.ask(urlQuestion('q2', 'https://a.example/'), asked.signal);
    const fromSecond = {
      sender: { id: FakeBrowserWindow.instances[1]!.webContents.id },
      senderFrame: fromWindow().senderFrame,
    };
    await invoke(fromSecond, 'answerQuestion', { questionId: 'q2', answer: { action: 'cancel' } });
    await expect(second).resolves.toMatchObject({ decidedBy: 'human', decidedByDetail: 'window 2' });
  });

  it('quitting with a question open ends it for the host’s reason, never as the human’s', async () => {
    await runMain();
    const pending = service!.questions.ask(urlQuestion('q1', 'https://a.example/'), new AbortController().signal);
    electron.app.emit('before-quit');
    expect(window().userCloses()).toBe(false);
    electron.app.emit('will-quit', { preventDefault: () => undefined });
    await expect(pending).resolves.toEqual({ answer: { action: 'cancel' }, decidedBy: 'app-closing' });
  });

  it('brings the window forward for a second launch', async () => {
    await runMain();
    window().minimized = true;
    electron.app.emit('second-instance');
    expect(window().restore).toHaveBeenCalled();
    expect(window().show).toHaveBeenCalled();
    expect(window().focus).toHaveBeenCalled();
  });

  it('closes the host service before quitting', async () => {
    await runMain();
    const close = vi.spyOn(service!, 'close');
    const event = { preventDefault: vi.fn() };
    electron.app.emit('will-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    expect(close).toHaveBeenCalledOnce();
    const again = { preventDefault: vi.fn() };
    electron.app.emit('will-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it('gives the host the history journal in the data folder, and closes it on quit', async () => {
    await runMain();
    const options = vi.mocked(HostService.create).mock.calls[0]![0];
    expect(options.history).toBeInstanceOf(JournalHistory);
    await expect(invoke(fromWindow(), 'queryHistory', {})).resolves.toMatchObject({ ok: true, value: { total: 0 } });
    electron.app.emit('will-quit', { preventDefault: () => undefined });
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    // The append lock is held only while appending, never while the app merely runs.
    expect(existsSync(join(dataDir, 'history', 'writer.lock'))).toBe(false);
  });

  it('starts while another process has the journal open, and both record into one chain', async () => {
    const other = await JournalHistory.open(join(dataDir, 'history'));
    try {
      await runMain();
      expect(electron.dialog.showErrorBox).not.toHaveBeenCalled();
      expect(HostService.create).toHaveBeenCalled();
    } finally {
      await other.close();
    }
  });

  it('explains and exits when the host cannot start', async () => {
    vi.mocked(HostService.create).mockRejectedValueOnce(new Error('servers.json: mcpServers must be an object'));
    await runMain();
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith(
      'Countersign cannot start',
      expect.stringContaining('mcpServers must be an object'),
    );
    expect(electron.app.exit).toHaveBeenCalledWith(1);
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });
});
