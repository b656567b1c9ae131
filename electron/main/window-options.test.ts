import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from './window-options';

describe('main window options', () => {
  it('locks the renderer down: isolation, sandbox, web security, no Node', () => {
    const options = mainWindowOptions({ preloadPath: '/app/dist/electron/preload.cjs', dark: false, devTools: false });
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/electron/preload.cjs',
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
      safeDialogs: true,
      spellcheck: false,
      devTools: false,
    });
  });

  it('sets no option that loosens the posture', () => {
    const prefs = mainWindowOptions({ preloadPath: '/p.cjs', dark: true, devTools: true }).webPreferences as Record<
      string,
      unknown
    >;
    for (const key of [
      'enableBlinkFeatures',
      'additionalArguments',
      'partition',
      'session',
      'disableBlinkFeatures',
      'plugins',
      'enableWebSQL',
    ]) {
      expect(prefs).not.toHaveProperty(key);
    }
    expect(prefs.devTools).toBe(true);
  });

  it('shows the window only when painted, with the icon and theme colour given', () => {
    const light = mainWindowOptions({ preloadPath: '/p.cjs', iconPath: '/i.png', dark: false, devTools: false });
    const dark = mainWindowOptions({ preloadPath: '/p.cjs', dark: true, devTools: false });
    expect(light.show).toBe(false);
    expect(light.icon).toBe('/i.png');
    expect(dark).not.toHaveProperty('icon');
    expect(light.backgroundColor).not.toBe(dark.backgroundColor);
    expect(light.title).toBe('Countersign');
  });
});
