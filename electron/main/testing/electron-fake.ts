// A small stand-in for the parts of the `electron` module that main uses,
// for tests that `vi.mock('electron')` (Electron cannot run here). Records
// calls; events are real EventEmitters so tests can fire them.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

/** A fake BrowserWindow with the state attention and IPC read. */
export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  private static nextId = 100;
  readonly webContents = { id: FakeBrowserWindow.nextId++, send: vi.fn() };
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  readonly loadURL = vi.fn(async (_url: string) => undefined);
  readonly show = vi.fn(() => {
    this.visible = true;
  });
  readonly hide = vi.fn(() => {
    this.visible = false;
    this.focused = false;
  });
  readonly focus = vi.fn(() => {
    this.focused = true;
  });
  readonly restore = vi.fn(() => {
    this.minimized = false;
  });
  readonly flashFrame = vi.fn();
  readonly setOverlayIcon = vi.fn();
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  isVisible() {
    return this.visible;
  }
  isFocused() {
    return this.focused;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** Fire 'close' as the user clicking the close button would; returns whether it was prevented. */
  userCloses(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = [];
  static failNext = false;
  readonly setToolTip = vi.fn();
  readonly setContextMenu = vi.fn();
  readonly setImage = vi.fn();
  readonly setTitle = vi.fn();
  constructor(readonly image: unknown) {
    super();
    if (FakeTray.failNext) {
      FakeTray.failNext = false;
      throw new Error('no tray here');
    }
    FakeTray.instances.push(this);
  }
}

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = [];
  static supported = true;
  static isSupported() {
    return FakeNotification.supported;
  }
  readonly show = vi.fn();
  readonly close = vi.fn(() => {
    this.emit('close');
  });
  constructor(readonly options: { title: string; body: string; icon?: string }) {
    super();
    FakeNotification.instances.push(this);
  }
}

function fakeImage(path: string) {
  return { path, setTemplateImage: vi.fn(), isTemplate: false };
}

/** Builds a fresh fake electron module; `state` holds what tests inspect. */
export function createElectronFake() {
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    setName: vi.fn(),
    getPath: vi.fn((name: string) => `/fake/${name}`),
    setPath: vi.fn(),
    getAppPath: vi.fn(() => '/fake/app'),
    getLocale: vi.fn(() => 'en-US'),
    enableSandbox: vi.fn(),
    setAppUserModelId: vi.fn(),
    setBadgeCount: vi.fn(() => true),
    whenReady: vi.fn(async () => undefined),
  });
  const handlers = new Map<string, Listener>();
  const ipcMain = {
    handle: vi.fn((channel: string, listener: Listener) => void handlers.set(channel, listener)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
  };
  const protocolHandlers = new Map<string, Listener>();
  const protocol = {
    registerSchemesAsPrivileged: vi.fn(),
    handle: vi.fn((scheme: string, handler: Listener) => void protocolHandlers.set(scheme, handler)),
  };
  const defaultSession = Object.assign(new EventEmitter(), {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    webRequest: { onBeforeRequest: vi.fn() },
  });
  const module = {
    app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    ipcMain,
    protocol,
    session: { defaultSession },
    shell: {
      openExternal: vi.fn(async (_url: string) => undefined),
      openPath: vi.fn(async (_path: string) => ''),
    },
    dialog: { showErrorBox: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((t: unknown) => ({ template: t })), setApplicationMenu: vi.fn() },
    nativeTheme: { shouldUseDarkColors: false },
    nativeImage: { createFromPath: vi.fn(fakeImage) },
  };
  return { module, handlers, protocolHandlers };
}

/** Clears the static instance lists between tests. */
export function resetFakeClasses(): void {
  FakeBrowserWindow.instances = [];
  FakeTray.instances = [];
  FakeTray.failNext = false;
  FakeNotification.instances = [];
  FakeNotification.supported = true;
}

/** One fake per test file: `vi.mock('electron', ...)` hands out its module. */
export const sharedFake = createElectronFake();
