// The packaging check CI runs: build into a scratch project, let
// electron-builder make the unpacked Linux tree (--dir) with a stub Electron
// (the real one cannot be downloaded here), then read app.asar and check it
// holds what the app needs and nothing it should not ship. A scratch project
// (not the repo's dist/) so the browser tests' dist/renderer is left alone.
// About 10 s; COUNTERSIGN_SKIP_DIR_BUILD=1 skips it locally.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFile, listPackage } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_METHOD_NAMES } from '../../shared/host-api/names';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * A stand-in Electron dist: an 'electron' executable carrying the fuse wire (as the real binary does), resources/,
 * LICENSE, version.
 */
function makeStubElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  // Fuse wire v1, 8 fuses, in Electron's shipped states: RunAsNode on, cookie encryption off, NODE_OPTIONS on,
  // --inspect on, asar integrity off, only-asar off, browser V8 snapshot off, file:// privileges on.
  const wire = Buffer.from([1, 8, ...Buffer.from('10110001')]);
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([
      Buffer.from(`#!/bin/sh\necho "stub electron"\nexit 0\n# ${FUSE_SENTINEL}`),
      wire,
      Buffer.from('\n'),
    ]),
  );
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), ELECTRON_VERSION);
  writeFileSync(join(dir, 'LICENSE'), 'stub');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), 'stub');
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CI: '1' },
    maxBuffer: 32 << 20,
  });
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

describe.skipIf(process.env.COUNTERSIGN_SKIP_DIR_BUILD === '1')(
  'unpacked Linux build (electron-builder --dir)',
  { timeout: 120_000 },
  () => {
    let work: string;
    let asar: string;
    let files: string[];
    let unpacked: string;

    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), 'countersign-dir-build-'));
      const project = join(work, 'project');
      mkdirSync(project);
      for (const file of ['package.json', 'electron-builder.yml']) cpSync(join(root, file), join(project, file));
      cpSync(join(root, 'assets'), join(project, 'assets'), { recursive: true });
      // electron-builder walks the production dependencies (and then excludes them all).
      symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
      run(process.execPath, [join(root, 'scripts/build.mjs'), '--out', join(project, 'dist')], root);
      makeStubElectron(join(work, 'electron-dist'));
      run(
        process.execPath,
        [
          join(root, 'node_modules/electron-builder/cli.js'),
          '--projectDir',
          project,
          '--linux',
          '--dir',
          `-c.electronDist=${join(work, 'electron-dist')}`,
          '-c.npmRebuild=false',
          `-c.directories.output=${join(work, 'out')}`,
        ],
        project,
      );
      unpacked = join(work, 'out', 'linux-unpacked');
      asar = join(unpacked, 'resources', 'app.asar');
      files = listPackage(asar, { isPack: false }).map((f) => f.replace(/\\/g, '/'));
    }, 120_000);

    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    const read = (path: string) => extractFile(asar, path).toString('utf8');

    it('holds package.json pointing at the main bundle, without scripts or devDependencies', () => {
      const pkg = JSON.parse(read('package.json')) as Record<string, unknown>;
      expect(pkg.main).toBe('dist/electron/main.cjs');
      expect(pkg).not.toHaveProperty('devDependencies');
      expect(pkg).not.toHaveProperty('scripts');
      expect(files).toContain('/package.json');
    });

    it('holds the main bundle, the preload, the renderer and the notices', () => {
      for (const path of [
        '/dist/electron/main.cjs',
        '/dist/electron/preload.cjs',
        '/dist/renderer/index.html',
        '/dist/electron/THIRD_PARTY_NOTICES.txt',
        '/dist/electron/icons/tray.png',
        '/dist/electron/icons/window.png',
      ]) {
        expect(files, path).toContain(path);
      }
      const html = read('dist/renderer/index.html');
      for (const ref of html.matchAll(/(?:src|href)="\.\/([^"]+)"/g))
        expect(files, ref[1]).toContain(`/dist/renderer/${ref[1]}`);
    });

    it('ships the demo server unpacked beside the archive, where a Node-mode process can load it', () => {
      expect(files).toContain('/dist/demo/demo-server.mjs');
      expect(existsSync(join(unpacked, 'resources', 'app.asar.unpacked', 'dist', 'demo', 'demo-server.mjs'))).toBe(
        true,
      );
    });

    it('ships no sources, tests, fixtures, source maps, test pages or node_modules', () => {
      const offenders = files.filter(
        (f) =>
          /\.(ts|tsx|map)$/.test(f) ||
          /(^|\/)(node_modules|test|tests|fixtures|__tests__|\.vite)(\/|$)/.test(f) ||
          /\.test\./.test(f) ||
          /harness/.test(f) ||
          f.startsWith('/electron/') ||
          f.startsWith('/renderer/') ||
          f.startsWith('/shared/') ||
          f.startsWith('/scripts/') ||
          f.startsWith('/dist/cli/'),
      );
      expect(offenders).toEqual([]);
      for (const dev of [
        'electron',
        'vitest',
        'vite',
        'playwright-core',
        'esbuild',
        'typescript',
        'electron-builder',
        'jsdom',
        'tsx',
      ]) {
        expect(
          files.some((f) => f.includes(`/node_modules/${dev}/`)),
          dev,
        ).toBe(false);
      }
    });

    it('stays small: everything is bundled', () => {
      const bytes = readFileSync(asar).length;
      expect(bytes).toBeLessThan(12 * 1024 * 1024);
    });

    it('bundles leave nothing to resolve at run time but electron and Node builtins', () => {
      const preload = read('dist/electron/preload.cjs');
      expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
      for (const name of HOST_METHOD_NAMES) expect(preload).toContain(`"${name}"`);
      const main = read('dist/electron/main.cjs');
      // Real calls only: Ajv keeps `require("ajv/dist/runtime/...")` as text for its standalone code generator.
      const required = new Set([...main.matchAll(/(?<![\w$.'"`])require\("([^"]+)"\)/g)].map((m) => m[1]!));
      expect(required).toContain('electron');
      const unexpected = [...required].filter(
        (m) => m !== 'electron' && !builtinModules.includes(m.replace(/^node:/, '')),
      );
      expect(unexpected).toEqual([]);
    });

    it('serves a renderer page with no inline script or style', () => {
      const html = read('dist/renderer/index.html');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style\b/);
      expect(html).not.toMatch(/\sstyle="/);
      expect(html).not.toMatch(/\son[a-z]+="/);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    });

    it('flipped the fuses in the packaged binary', async () => {
      const wire = await getCurrentFuseWire(join(unpacked, 'countersign'));
      const on = 49;
      const off = 48;
      // runAsNode, cookie encryption, NODE_OPTIONS, --inspect (and SIGUSR1), asar integrity, only-asar, file:// privileges.
      expect([0, 1, 2, 3, 4, 5, 7].map((i) => (wire as Record<number, number>)[i])).toEqual([
        on,
        on,
        off,
        off,
        on,
        on,
        off,
      ]);
    });
  },
);
