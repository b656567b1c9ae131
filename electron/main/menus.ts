// The application and tray menus as plain templates. macOS needs an Edit
// menu for copy and paste to work in text fields; Windows and Linux get no
// menu bar (Chromium handles the editing keys itself). Reload and DevTools
// exist only in unpackaged development runs.
import type { MenuItemConstructorOptions } from 'electron';
import type { AttentionLanguage } from './attention';

/** The application menu, or null for none. */
export function applicationMenuTemplate(platform: NodeJS.Platform, dev: boolean): MenuItemConstructorOptions[] | null {
  const devMenu: MenuItemConstructorOptions[] = dev
    ? [{ label: 'Develop', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }] }]
    : [];
  if (platform !== 'darwin') return dev ? devMenu : null;
  return [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }, ...devMenu];
}

/** The tray's context menu. */
export function trayMenuTemplate(
  lang: AttentionLanguage,
  actions: { show(): void; quit(): void },
): MenuItemConstructorOptions[] {
  const de = lang === 'de';
  return [
    { label: de ? 'Countersign anzeigen' : 'Show Countersign', click: actions.show },
    { type: 'separator' },
    { label: de ? 'Countersign beenden' : 'Quit Countersign', click: actions.quit },
  ];
}
