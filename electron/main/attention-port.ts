// The Electron side of attention.ts: dock / launcher badge, Windows taskbar
// overlay, tray icon and tooltip, native notifications, taskbar flashing.
import { join } from 'node:path';
import { app, Menu, Notification, Tray, nativeImage, type BrowserWindow } from 'electron';
import type { AttentionLanguage, AttentionPort, WindowState } from './attention';
import { trayMenuTemplate } from './menus';

export interface AttentionPortDeps {
  platform: NodeJS.Platform;
  /** dist/electron/icons: tray, badge and notification images. */
  iconsDir: string;
  getWindow(): BrowserWindow | undefined;
  bringToFront(): void;
  quit(): void;
  language(): AttentionLanguage;
}

/** Tray icon file for the platform and state (macOS uses a template image and a text title instead). */
export function trayIconFile(platform: NodeJS.Platform, waiting: boolean): string {
  if (platform === 'darwin') return 'trayTemplate.png';
  return waiting ? 'tray-attention.png' : 'tray.png';
}

/** Windows taskbar overlay image for a badge text ('' for none). */
export function overlayIconFile(text: string): string | null {
  if (!text) return null;
  return text === '9+' ? 'badge-9plus.png' : `badge-${text}.png`;
}

/** Creates the tray (null where the platform has none) and the port over it. */
export function createAttentionPort(deps: AttentionPortDeps): { port: AttentionPort; tray: Tray | null } {
  const icon = (file: string) => nativeImage.createFromPath(join(deps.iconsDir, file));
  let tray: Tray | null = null;
  try {
    const image = icon(trayIconFile(deps.platform, false));
    if (deps.platform === 'darwin') image.setTemplateImage(true);
    tray = new Tray(image);
    tray.setToolTip('Countersign');
    tray.setContextMenu(
      Menu.buildFromTemplate(trayMenuTemplate(deps.language(), { show: deps.bringToFront, quit: deps.quit })),
    );
    tray.on('click', deps.bringToFront);
  } catch {
    tray = null; // some Linux desktops have no tray; the badge and notifications still work
  }
  // Electron drops a Notification's click handler if the object is collected; keep each until it is done.
  const live = new Set<Notification>();
  // The notification a new one replaces: a burst is one notification whose count grows.
  let current: Notification | undefined;

  const port: AttentionPort = {
    setBadge(count, text) {
      if (deps.platform === 'win32') {
        const file = overlayIconFile(text);
        deps.getWindow()?.setOverlayIcon(file ? icon(file) : null, text ? `${text} waiting` : '');
      } else {
        app.setBadgeCount(count); // macOS dock, Unity-compatible Linux launchers
      }
      if (!tray) return;
      if (deps.platform === 'darwin') tray.setTitle(text ? ` ${text}` : '');
      else tray.setImage(icon(trayIconFile(deps.platform, count > 0)));
    },
    setTrayTooltip(text) {
      tray?.setToolTip(text);
    },
    notify(message, onClick) {
      if (!Notification.isSupported()) return;
      const n = new Notification({
        title: message.title,
        body: message.body,
        ...(deps.platform === 'linux' ? { icon: join(deps.iconsDir, 'notification.png') } : {}),
      });
      current?.close();
      current = n;
      live.add(n);
      const done = () => {
        live.delete(n);
        if (current === n) current = undefined;
      };
      n.on('click', () => {
        done();
        onClick();
      });
      n.on('close', done);
      n.on('failed', done);
      n.show();
    },
    flash(on) {
      const win = deps.getWindow();
      if (win && !win.isDestroyed()) win.flashFrame(on);
    },
    windowState(): WindowState {
      const win = deps.getWindow();
      if (!win || win.isDestroyed()) return { exists: false, visible: false, minimized: false, focused: false };
      return { exists: true, visible: win.isVisible(), minimized: win.isMinimized(), focused: win.isFocused() };
    },
    bringToFront: deps.bringToFront,
  };
  return { port, tray };
}
