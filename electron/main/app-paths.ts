// Where the desktop app finds its bundled files and keeps its data.
import { join } from 'node:path';

/** Files inside the app (the asar in a packaged build), from app.getAppPath(). */
export function bundledPaths(appPath: string) {
  const electronDir = join(appPath, 'dist', 'electron');
  return {
    preload: join(electronDir, 'preload.cjs'),
    rendererRoot: join(appPath, 'dist', 'renderer'),
    iconsDir: join(electronDir, 'icons'),
  };
}

/**
 * The data folder: the same one the CLI uses (electron/cli/paths.ts), so
 * both see one servers.json and one history. `appData` is
 * app.getPath('appData'): ~/Library/Application Support, %APPDATA%, or
 * $XDG_CONFIG_HOME (~/.config).
 */
export function desktopDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, appData: string): string {
  if (env.COUNTERSIGN_DATA_DIR) return env.COUNTERSIGN_DATA_DIR;
  return join(appData, platform === 'darwin' || platform === 'win32' ? 'Countersign' : 'countersign');
}

/** Chromium's own profile (caches, local storage) in a subfolder, away from the host's files. */
export function chromiumDataDir(dataDir: string): string {
  return join(dataDir, 'chromium');
}

/**
 * Where to look for the bundled demo server. Packaged, dist/demo is unpacked
 * beside app.asar (electron-builder.yml asarUnpack), and the demo process,
 * a separate Node-mode process, is handed that real file rather than a path
 * inside the archive.
 */
export function demoSearchDir(appPath: string, isPackaged: boolean): string {
  return join(isPackaged ? `${appPath}.unpacked` : appPath, 'dist', 'electron');
}
