// The main window's options. Every security-relevant webPreference is spelled
// out, even where Electron 45's default already matches, so a reader (and the
// test) sees the whole posture and a changed default cannot loosen it.
import type { BrowserWindowConstructorOptions } from 'electron';

/** What varies between runs. */
export interface WindowOptionsInput {
  /** Absolute path of the bundled preload (dist/electron/preload.cjs). */
  preloadPath: string;
  /** Window icon (Linux and Windows use it; macOS takes the bundle's). */
  iconPath?: string;
  /** Dark system theme: avoids a white flash before the page paints. */
  dark: boolean;
  /** DevTools only for unpackaged development runs. */
  devTools: boolean;
}

/** The BrowserWindow options of the one Countersign window. */
export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: 640,
    minHeight: 480,
    title: 'Countersign',
    // Shown on 'ready-to-show', so the user never sees a blank frame.
    show: false,
    backgroundColor: input.dark ? '#1e1f22' : '#f6f6f4',
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      // Dialog spam (alert loops) gets a "prevent more dialogs" checkbox.
      safeDialogs: true,
      // The spell checker downloads dictionaries from a Google CDN on Windows and Linux.
      spellcheck: false,
      devTools: input.devTools,
    },
  };
}
