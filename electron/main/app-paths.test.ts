import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDir as cliDataDir } from '../cli/paths';
import { bundledPaths, chromiumDataDir, demoSearchDir, desktopDataDir } from './app-paths';
import { applicationMenuTemplate, trayMenuTemplate } from './menus';

describe('app paths', () => {
  it('finds the bundled files inside the app', () => {
    expect(bundledPaths('/r/app.asar')).toEqual({
      preload: join('/r/app.asar', 'dist', 'electron', 'preload.cjs'),
      rendererRoot: join('/r/app.asar', 'dist', 'renderer'),
      iconsDir: join('/r/app.asar', 'dist', 'electron', 'icons'),
    });
  });

  it('uses the same data folder as the CLI on this platform', () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' };
    const appData =
      process.platform === 'darwin'
        ? '/home/u/Library/Application Support'
        : process.platform === 'win32'
          ? env.APPDATA
          : env.XDG_CONFIG_HOME;
    expect(desktopDataDir(process.platform, env, appData)).toBe(cliDataDir(env));
  });

  it('honours COUNTERSIGN_DATA_DIR and names the folder per platform', () => {
    expect(desktopDataDir('linux', { COUNTERSIGN_DATA_DIR: '/x' }, '/cfg')).toBe('/x');
    expect(desktopDataDir('linux', {}, '/cfg')).toBe(join('/cfg', 'countersign'));
    expect(desktopDataDir('darwin', {}, '/as')).toBe(join('/as', 'Countersign'));
    expect(desktopDataDir('win32', {}, '/ad')).toBe(join('/ad', 'Countersign'));
    expect(chromiumDataDir('/d')).toBe(join('/d', 'chromium'));
  });

  it('looks for the demo beside the archive when packaged', () => {
    expect(demoSearchDir('/r/app.asar', true)).toBe(join('/r/app.asar.unpacked', 'dist', 'electron'));
    expect(demoSearchDir('/src', false)).toBe(join('/src', 'dist', 'electron'));
  });
});

describe('menus', () => {
  it('gives macOS the edit menu it needs for copy and paste, and others no menu bar', () => {
    const mac = applicationMenuTemplate('darwin', false)!;
    expect(mac.map((m) => m.role)).toEqual(['appMenu', 'editMenu', 'windowMenu']);
    expect(applicationMenuTemplate('linux', false)).toBeNull();
    expect(applicationMenuTemplate('win32', false)).toBeNull();
  });

  it('offers reload and DevTools only in development', () => {
    const flat = (t: unknown) => JSON.stringify(t);
    expect(flat(applicationMenuTemplate('darwin', false))).not.toMatch(/toggleDevTools|reload/);
    expect(flat(applicationMenuTemplate('linux', true))).toMatch(/toggleDevTools/);
  });

  it('builds the tray menu with show and quit', () => {
    const show = () => undefined;
    const quit = () => undefined;
    const en = trayMenuTemplate('en', { show, quit });
    expect(en.map((i) => i.label ?? i.type)).toEqual(['Show Countersign', 'separator', 'Quit Countersign']);
    expect(en[0]!.click).toBe(show);
    expect(en[2]!.click).toBe(quit);
    expect(trayMenuTemplate('de', { show, quit })[0]!.label).toBe('Countersign anzeigen');
  });
});
