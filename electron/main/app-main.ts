// The Electron main process: app lifecycle, the one window, the host service
// behind IPC, attention (tray, badge, notifications). Decisions live in the
// small Electron-free modules beside this file; this is the wiring.
import { AppExports } from './app-export';
import { DESKTOP_APP_ORIGIN, isAppDocumentUrl, serveAppDocument } from './app-frames';
import { installStableDemo } from './demo-install';
import { startApprovalServer } from '../core/approval/approval-server';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BrowserWindow, Menu, app, dialog, ipcMain, nativeTheme, protocol, session, shell } from 'electron';
import { JournalHistory } from '../core/service/journal-history';
import { openDataFolder } from '../core/storage/private-files';
import { HostService } from '../core/service/host-service';
import type { Settings } from '../../shared/host-api/contract';
import { demoLaunch, demoServers } from '../demo/demo-servers';
import { APP_USER_MODEL_ID } from './app-identity';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppRequestHandler } from './app-protocol';
import { bundledPaths, chromiumDataDir, demoSearchDir, desktopDataDir } from './app-paths';
import { AttentionController, attentionLanguage, type AttentionLanguage } from './attention';
import { createAttentionPort } from './attention-port';
import { hardenSession, hardenWebContents } from './hardening';
import { EVENT_CHANNEL, createInvokeHandler, forwardHostEvents, registerHostIpc } from './ipc';
import { applicationMenuTemplate } from './menus';
import { OpenExternalGate, openPathOrFail } from './open-external-gate';
import { openLinkThroughLauncher, removeLauncherFiles } from '../core/links/launcher-file';
import { mainWindowOptions } from './window-options';
import { stderrLog } from '../core/terminal-output';

/** How long quitting waits for servers and the journal to close. */
const SHUTDOWN_TIMEOUT_MS = 5_000;

const log = stderrLog;

/** Starts the desktop app. Returns once it is running (or has decided to quit). */
export async function runMain(): Promise<void> {
  // Everything until whenReady must happen before 'ready'.
  app.setName('Countersign');
  // Set before the lock: Chromium keeps the single-instance lock in userData,
  // so one lock guards one data folder (COUNTERSIGN_DATA_DIR gives another).
  const dataDir = desktopDataDir(process.platform, process.env, app.getPath('appData'));
  app.setPath('userData', dataDir);
  app.setPath('sessionData', chromiumDataDir(dataDir));

  // A second launch only brings the first one's window forward.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));

  const paths = bundledPaths(app.getAppPath());
  const dev = !app.isPackaged;
  let win: BrowserWindow | undefined;
  // Each window the app opens gets a label ("window 1", …) that the history keeps with the answers given in it.
  const windowLabels = new Map<number, string>();
  let windowsOpened = 0;
  let quitting = false;
  let language: AttentionLanguage = 'en';

  const bringToFront = () => {
    if (!win || win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };
  app.on('second-instance', bringToFront);
  app.on('activate', bringToFront); // macOS: dock icon clicked
  app.on('before-quit', () => {
    quitting = true;
  });
  // The window hides instead of closing, so questions keep arriving (tray, badge, notification).
  app.on('window-all-closed', () => undefined);

  await app.whenReady();

  hardenSession(session.defaultSession, log);
  const appFiles = createAppRequestHandler(paths.rendererRoot, (path) => readFile(path));
  // History exports stream from one-use app:// links (app-export.ts), and MCP App documents come from
  // app://mcp-apps (app-frames.ts), once the host service exists.
  let appExports: AppExports | undefined;
  let appDocuments: HostService['apps']['documents'] | undefined;
  protocol.handle(APP_SCHEME, async (request) => {
    if (isAppDocumentUrl(request.url))
      return appDocuments ? serveAppDocument(request, appDocuments) : new Response(null, { status: 404 });
    return appExports?.handles(request.url) ? appExports.serve(request) : appFiles(request);
  });
  const menu = applicationMenuTemplate(process.platform, dev);
  Menu.setApplicationMenu(menu ? Menu.buildFromTemplate(menu) : null);

  // Links leave through a private launcher page: shell.openPath is given only its
  // path (shell.openExternal(url) would put the URL in xdg-open's argv on Linux).
  const gate = new OpenExternalGate((url) => openLinkThroughLauncher(url, (path) => openPathOrFail(shell, path)), log);
  let history: JournalHistory | undefined;
  let service: HostService;
  try {
    // Before anything in it is read: ours and no symlink, or refused; tightened when loose.
    await openDataFolder(dataDir);
    // Every question and answer is journaled before the server hears the answer; no history, no app.
    history = await JournalHistory.open(join(dataDir, 'history'));
    service = await HostService.create({
      dataDir,
      openExternal: gate.openExternal,
      history,
      // The window frames MCP Apps from app://mcp-apps (app-frames.ts), so servers are told it can.
      rendersApps: true,
      // Written to servers.json only on the very first start.
      firstStartServers: demoServers(
        await installStableDemo(
          demoSearchDir(app.getAppPath(), app.isPackaged),
          dataDir,
          process.env,
          process.execPath,
        ),
      ),
    });
  } catch (e) {
    await history?.close().catch(() => undefined);
    const why = e instanceof Error ? e.message : String(e);
    dialog.showErrorBox('Countersign cannot start', `${why}\n\nData folder: ${dataDir}`);
    app.exit(1);
    return;
  }
  service.apps.origin = DESKTOP_APP_ORIGIN;
  appDocuments = service.apps.documents;
  const exports = new AppExports(service);
  appExports = exports;
  service.exportLinks = (filter, format) => exports.issue(filter, format);

  const { port } = createAttentionPort({
    platform: process.platform,
    iconsDir: paths.iconsDir,
    getWindow: () => win,
    bringToFront,
    quit: () => app.quit(),
    language: () => language,
  });
  let notificationDetail: Settings['notificationDetail'] = 'names';
  const attention = new AttentionController(
    port,
    () => language,
    () => notificationDetail,
  );
  const applyLanguage = (setting: 'system' | 'en' | 'de') => {
    language = attentionLanguage(setting, app.getLocale());
    attention.refresh();
  };
  applyLanguage('system');
  const applySettings = (s: Settings) => {
    notificationDetail = s.notificationDetail;
    applyLanguage(s.language);
  };
  void service.invoke('getSettings', {}).then(applySettings, () => undefined);
  service.on('settingsChanged', applySettings);
  service.on('questionAdded', (q) => attention.questionAdded(q, service.pendingQuestionCount()));
  service.on('questionRemoved', (e) => attention.questionRemoved(service.pendingQuestionCount(), e.questionId));

  registerHostIpc(
    ipcMain,
    createInvokeHandler({
      service,
      gate,
      mainWebContentsId: () => (win && !win.isDestroyed() ? win.webContents.id : undefined),
      windowLabel: (id) => windowLabels.get(id),
      log,
    }),
  );
  forwardHostEvents(service, (name, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
  });

  // Gateways (`countersign gateway`) send their agents' questions here.
  const approval = await startApprovalServer({ service, dataDir, app: 'desktop', log }).catch((e) => {
    log(`countersign: approval channel not started: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    const timeout = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref());
    // The approval channel first: questions it withdraws are still recorded.
    const stop = async () => {
      await approval?.close();
      await service.close();
      await removeLauncherFiles();
    };
    void Promise.race([stop(), timeout])
      .catch((e) => log(`countersign: shutdown: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => app.quit());
  });

  function createWindow(): BrowserWindow {
    const w = new BrowserWindow(
      mainWindowOptions({
        preloadPath: paths.preload,
        iconPath: join(paths.iconsDir, 'window.png'),
        dark: nativeTheme.shouldUseDarkColors,
        devTools: dev,
      }),
    );
    windowsOpened += 1;
    const contentsId = w.webContents.id;
    windowLabels.set(contentsId, `window ${windowsOpened}`);
    w.once('ready-to-show', () => w.show());
    w.on('focus', () => attention.windowFocused());
    // Closing the window hides it and answers nothing: its questions stay open (the tray and badge count them).
    w.on('close', (event) => {
      if (quitting) return;
      event.preventDefault();
      w.hide();
    });
    w.on('closed', () => {
      windowLabels.delete(contentsId);
      if (win === w) win = undefined;
    });
    void w.loadURL(APP_INDEX_URL);
    return w;
  }

  win = createWindow();
}
