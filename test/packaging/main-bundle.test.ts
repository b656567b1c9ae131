// The BUILT main bundle (dist/electron/main.cjs), run by plain Node with a
// scripted stand-in for the `electron` module: proves the CommonJS bundle
// loads, finds its preload, renderer and demo server, serves app://, answers
// IPC through the bundled HostService (which really starts the bundled demo
// server), and shuts down, all without an Electron binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LEGACY_SERVER_NAME, DEMO_SERVER_NAME } from '../../electron/demo/demo-servers';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Loaded with `node -r`: answers require('electron') with a fake that drives the app and prints what happened.
const STUB = String.raw`
const Module = require('node:module');
const { EventEmitter } = require('node:events');
const report = (step, data) => process.stdout.write(JSON.stringify({ step, ...data }) + '\n');
const handlers = new Map();
const protocols = new Map();
const windows = [];
class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = { id: 42, sent: [], send: (...args) => this.webContents.sent.push(args) };
    windows.push(this);
    report('window', { options });
  }
  loadURL(url) { report('loadURL', { url }); return Promise.resolve(); }
  show() {} hide() {} focus() {} restore() {} flashFrame() {} setOverlayIcon() {}
  isDestroyed() { return false; } isVisible() { return false; } isFocused() { return false; } isMinimized() { return false; }
}
const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  requestSingleInstanceLock: () => true,
  setName() {}, enableSandbox() {}, setAppUserModelId() {}, setBadgeCount() { return true; },
  getPath: (name) => '/nonexistent/' + name,
  setPath: (name, value) => report('setPath', { name, value }),
  getAppPath: () => process.env.STUB_APP_PATH,
  getLocale: () => 'en-US',
  whenReady: () => Promise.resolve(),
  exit: (code) => { report('exit', { code }); process.exit(code); },
  quit: () => { report('quit', {}); process.exit(0); },
});
const electron = {
  app, BrowserWindow,
  ipcMain: { handle: (c, h) => handlers.set(c, h), removeHandler: (c) => handlers.delete(c) },
  protocol: { registerSchemesAsPrivileged: (s) => report('schemes', { s }), handle: (s, h) => protocols.set(s, h) },
  session: { defaultSession: Object.assign(new EventEmitter(), {
    setPermissionRequestHandler() {}, setPermissionCheckHandler() {}, setDevicePermissionHandler() {},
    webRequest: { onBeforeRequest() {} },
  }) },
  shell: {
    openExternal: async (url) => report('openExternal', { url }),
    openPath: async (path) => { report('openPath', { path }); return ''; },
  },
  dialog: { showErrorBox: (t, m) => report('errorBox', { t, m }) },
  Menu: { buildFromTemplate: (t) => t, setApplicationMenu() {} },
  nativeTheme: { shouldUseDarkColors: false },
  nativeImage: { createFromPath: (p) => ({ path: p, setTemplateImage() {} }) },
  Tray: class extends EventEmitter { setToolTip() {} setContextMenu() {} setImage() {} setTitle() {} },
  Notification: class extends EventEmitter { static isSupported() { return false; } show() {} },
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'electron' ? 'electron-stub' : resolve.call(this, request, ...rest);
};
require.cache['electron-stub'] = { id: 'electron-stub', filename: 'electron-stub', loaded: true, exports: electron };

// Drive the app once main has wired everything: poll for the IPC handler and the window
// rather than guess how long start-up takes (history open, demo copy).
const wired = async () => {
  for (let i = 0; i < 400 && !(handlers.has('countersign:invoke') && windows.length > 0); i++) await new Promise((r) => setTimeout(r, 50));
};
setTimeout(async () => {
  try {
    await wired();
    const win = windows[0];
    const handle = protocols.get('app');
    const index = await handle({ url: 'app://countersign/index.html', method: 'GET' });
    report('index', { status: index.status, csp: index.headers.get('content-security-policy'), body: (await index.text()).slice(0, 15) });
    const invoke = handlers.get('countersign:invoke');
    const fromWindow = { sender: { id: 42 }, senderFrame: { url: 'app://countersign/index.html', parent: null } };
    report('foreign', { reply: await invoke({ sender: { id: 7 }, senderFrame: null }, 'listServers', {}) });
    let servers;
    for (let i = 0; i < 100; i++) {
      servers = await invoke(fromWindow, 'listServers', {});
      if (servers.ok && servers.value.length > 0 && servers.value.every((s) => s.status === 'connected' || s.status === 'error')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    report('servers', { reply: servers, events: win.webContents.sent.map((a) => a[1]) });
    app.emit('before-quit');
    app.emit('will-quit', { preventDefault() {} });
  } catch (e) {
    report('driver-error', { message: String(e && e.stack || e) });
    process.exit(3);
  }
}, 300);
`;

describe('built main bundle under a scripted electron stand-in', { timeout: 90_000 }, () => {
  let work: string;
  let steps: Array<Record<string, unknown> & { step: string }>;
  let stderr: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'countersign-main-bundle-'));
    const build = spawnSync(
      process.execPath,
      [join(root, 'scripts/build.mjs'), '--out', join(work, 'app', 'dist'), '--no-cli'],
      { cwd: root, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    writeFileSync(join(work, 'electron-stub.cjs'), STUB);
    const data = join(work, 'data');
    const run = spawnSync(
      process.execPath,
      ['-r', join(work, 'electron-stub.cjs'), join(work, 'app', 'dist', 'electron', 'main.cjs')],
      {
        cwd: work,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, STUB_APP_PATH: join(work, 'app'), COUNTERSIGN_DATA_DIR: data, NODE_ENV: 'production' },
      },
    );
    stderr = run.stderr;
    steps = run.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown> & { step: string });
  }, 90_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const step = (name: string) => steps.find((s) => s.step === name);

  it('sets the data folders and registers app:// before ready', () => {
    expect(steps.map((s) => s.step).slice(0, 3), stderr).toEqual(['setPath', 'setPath', 'schemes']);
    expect(step('setPath')).toEqual({ step: 'setPath', name: 'userData', value: join(work, 'data') });
  });

  it('opens the window with the bundled preload on the app origin', () => {
    expect(step('window'), `${JSON.stringify(steps)}\n${stderr}`).toBeDefined();
    const options = step('window')!.options as {
      webPreferences: { preload: string; sandbox: boolean; contextIsolation: boolean };
    };
    expect(options.webPreferences.preload).toBe(join(work, 'app', 'dist', 'electron', 'preload.cjs'));
    expect(readFileSync(options.webPreferences.preload, 'utf8')).toContain('exposeInMainWorld');
    expect(options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
    expect(step('loadURL')).toMatchObject({ url: 'app://countersign/index.html' });
  });

  it('serves the built renderer over app:// with the CSP header', () => {
    expect(step('index')).toMatchObject({
      status: 200,
      csp: expect.stringContaining("default-src 'none'"),
      body: '<!doctype html>',
    });
  });

  it('refuses a foreign sender and answers the window through the bundled HostService', () => {
    expect(step('foreign')).toMatchObject({ reply: { ok: false, error: { code: 'forbidden' } } });
    const servers = step('servers') as unknown as {
      reply: { ok: boolean; value: Array<{ name: string; status: string }> };
      events: string[];
    };
    expect(servers.reply.ok, stderr).toBe(true);
    // The demo server was found next to the bundle, copied to the data folder (a path that
    // survives AppImage re-mounts and updates), written on first start, and really started.
    expect(servers.reply.value.map((s) => [s.name, s.status])).toEqual([
      [DEMO_SERVER_NAME, 'connected'],
      [DEMO_LEGACY_SERVER_NAME, 'connected'],
    ]);
    expect(servers.events).toContain('serversChanged');
    const saved = JSON.parse(readFileSync(join(work, 'data', 'servers.json'), 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    expect(saved.mcpServers[DEMO_SERVER_NAME]!.args.at(-1)).toBe(join(work, 'data', 'demo', 'demo-server.mjs'));
  });

  it('shuts down cleanly and opens nothing on its own', () => {
    expect(steps.at(-1)?.step).toBe('quit');
    expect(step('openExternal')).toBeUndefined();
    expect(step('openPath')).toBeUndefined();
    expect(step('errorBox')).toBeUndefined();
    expect(step('driver-error')).toBeUndefined();
  });
});
