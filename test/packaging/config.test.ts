// electron-builder.yml, checked offline: against app-builder-lib's own
// scheme.json with a strict Ajv (no type coercion), through electron-builder's
// own loader and validator, and for the decisions the app depends on.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID } from '../../electron/main/app-identity';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
const loadConfig = () => getConfig(root, join(root, 'electron-builder.yml'), null);
type Config = Awaited<ReturnType<typeof loadConfig>> & Record<string, unknown>;

/** The include/exclude decision electron-builder's file patterns make: the last matching pattern wins. */
function included(patterns: string[], path: string): boolean {
  let result = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (minimatch(path, negated ? pattern.slice(1) : pattern, { dot: true })) result = !negated;
  }
  return result;
}

describe('electron-builder.yml', async () => {
  const config = (await loadConfig()) as Config;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it('matches app-builder-lib scheme.json (strict Ajv, no coercion)', () => {
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  });

  it("passes electron-builder's own validation", async () => {
    await expect(
      validateConfiguration(config, { isEnabled: false, add: () => undefined } as never),
    ).resolves.toBeUndefined();
  });

  it('would be refused by the same schema if it had a typo', () => {
    expect(validate({ ...config, linux: { ...(config.linux as object), categroy: 'Utility' } })).toBe(false);
    expect(validate({ ...config, asar: 'yes' })).toBe(false);
  });

  it('names the app and ties Windows notifications to the appId', () => {
    expect(config.appId).toBe(APP_USER_MODEL_ID);
    expect(config.productName).toBe('Countersign');
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
  });

  it('targets AppImage + deb, dmg with the hardened runtime, and nsis', () => {
    expect(config.linux).toMatchObject({
      target: ['AppImage', 'deb'],
      category: 'Utility',
      maintainer: expect.stringMatching(/.+<.+@.+>/),
    });
    expect(config.mac).toMatchObject({ target: ['dmg'], hardenedRuntime: true });
    expect(config.win).toMatchObject({ target: ['nsis'] });
  });

  it('points at icons and entitlements that exist', () => {
    const linux = config.linux as { icon: string };
    const mac = config.mac as { icon: string; entitlements: string; entitlementsInherit: string };
    const win = config.win as { icon: string };
    expect(statSync(join(root, linux.icon)).isDirectory()).toBe(true);
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024])
      expect(existsSync(join(root, linux.icon, `${size}x${size}.png`))).toBe(true);
    for (const file of [mac.icon, mac.entitlements, mac.entitlementsInherit, win.icon])
      expect(existsSync(join(root, file)), file).toBe(true);
    const entitlements = readFileSync(join(root, mac.entitlements), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toMatch(/disable-library-validation|device\.camera|audio-input/);
  });

  it('flips the Electron fuses that harden the binary', () => {
    expect(config.electronFuses).toEqual({
      // On only for the shipped demo server (electron/demo/demo-servers.ts runs it with ELECTRON_RUN_AS_NODE);
      // justified in docs/security.md.
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  describe('files', () => {
    const patterns = (config.files as Array<{ filter: string[] }>)[0]?.filter ?? [];

    it.each([
      'package.json',
      'dist/electron/main.cjs',
      'dist/electron/preload.cjs',
      'dist/electron/icons/tray.png',
      'dist/electron/THIRD_PARTY_NOTICES.txt',
      'dist/renderer/index.html',
      'dist/renderer/assets/app-abc.js',
      'dist/renderer/assets/app-abc.css',
      'dist/demo/demo-server.mjs',
    ])('ships %s', (path) => {
      expect(included(patterns, path)).toBe(true);
    });

    it.each([
      'electron/main/main.ts',
      'electron/main/ipc.test.ts',
      'shared/host-api/contract.ts',
      'renderer/src/main.tsx',
      'test/fixtures/servers/booking-form.ts',
      'electron/core/history/fixtures/x.jsonl',
      'dist/electron/main.cjs.map',
      'dist/renderer/assets/vendor-abc.js.map',
      'dist/renderer/harness.html',
      'dist/renderer/assets/harness-abc.js',
      'dist/renderer/.vite/manifest.json',
      'dist/cli/countersign.mjs',
      'node_modules/react/index.js',
      'node_modules/electron/index.js',
      'dist/electron/node_modules/x/index.js',
      'tsconfig.json',
      'vite.config.ts',
      'electron-builder.yml',
      'package-lock.json',
      'scripts/build.mjs',
      'assets/icon.svg',
      '.env',
    ])('does not ship %s', (path) => {
      expect(included(patterns, path)).toBe(false);
    });
  });

  it('package.json points Electron at the CommonJS main bundle and has the build scripts', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      main: string;
      scripts: Record<string, string>;
    };
    expect(pkg.main, 'package.json "main" must be the bundle scripts/build.mjs writes').toBe('dist/electron/main.cjs');
    expect(pkg.scripts.build).toBe('node scripts/build.mjs');
  });
});
