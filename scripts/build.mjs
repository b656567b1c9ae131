#!/usr/bin/env node
// @ts-check
// `npm run build`: everything the desktop app and the packaged CLI run, in dist/.
//
//   dist/electron/main.cjs      Electron main process (CommonJS, see below)
//   dist/electron/preload.cjs   the sandboxed preload (one self-contained file)
//   dist/electron/icons/        tray, badge, window and notification images
//   dist/electron/THIRD_PARTY_NOTICES.txt
//   dist/renderer/              the Vite build of renderer/ (vite.config.ts)
//   dist/cli/countersign.mjs    the CLI (ESM, exports `main`; not shipped in the app)
//   dist/demo/demo-server.mjs   the demo MCP server, when electron/demo/demo-server.ts exists
//
// Why CommonJS for main: Electron loads a CJS entry synchronously, so the
// single-instance lock and the privileged app:// scheme are in place before
// 'ready' with no top-level await; the bundled CJS dependencies (ws, ajv,
// cross-spawn) keep their `require` calls without a createRequire shim; and
// the sandboxed preload must be CJS anyway. package.json "main" must be
// "dist/electron/main.cjs".
//
// Why bundle every dependency: the app then ships no node_modules at all
// (electron-builder.yml excludes them), so app.asar holds a few MB instead
// of the whole dependency tree, and nothing unbundled can be missing at run
// time — the build fails if a bundle still requires anything but electron or
// a Node builtin.
//
// Flags: --out <dir> (instead of dist/, e.g. for a throw-away packaging
// check that must not disturb tests using dist/), --no-renderer, --no-cli.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: { out: { type: 'string' }, 'no-renderer': { type: 'boolean' }, 'no-cli': { type: 'boolean' } },
});
const dist = flags.out ? resolve(flags.out) : join(root, 'dist');

/** Electron 45 embeds Node 22 (a lower target is always safe). */
const ELECTRON_NODE_TARGET = 'node22';

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
// Native speed-ups `ws` tries inside try/catch and does without; never installed, never needed.
const OPTIONAL_NATIVE = new Set(['bufferutil', 'utf-8-validate']);
const nodeRuntime = (p) => builtins.has(p) || OPTIONAL_NATIVE.has(p);

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  sourcemap: 'linked', // .map files stay in dist/ for debugging; electron-builder.yml keeps them out of the app
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none', // licences are collected into THIRD_PARTY_NOTICES.txt instead
  define: { 'process.env.NODE_ENV': '"production"' },
  // jsonc-parser's "main" is a UMD build that loads its parts with a runtime require() a bundler cannot follow
  // ("Cannot find module './impl/format'" from the bundle); its ES module build bundles like any other.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

// The plain-Node ESM bundles (the demo server, the CLI): bundled CJS
// dependencies call require(), so the ESM file gets one.
/** @type {Pick<import('esbuild').BuildOptions, 'format' | 'target' | 'banner'>} */
const nodeEsm = {
  format: 'esm',
  target: 'node20',
  banner: {
    js:
      "import { createRequire as __csCreateRequire } from 'node:module'; " +
      'const require = __csCreateRequire(import.meta.url);',
  },
};

// Fails when a bundle still imports something that will not exist at run time.
function assertSelfContained(result, name, allowed) {
  const bad = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) {
      if (imp.external && !allowed(imp.path)) bad.add(imp.path);
    }
  }
  if (bad.size > 0)
    throw new Error(`${name} still imports ${[...bad].join(', ')} at run time; bundle it or make it a Node builtin`);
}

function step(label) {
  process.stdout.write(`build: ${label}\n`);
}

async function exists(path) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

// The packages a bundle contains, with their licence texts, from esbuild's metafile.
async function thirdPartyNotices(metafiles, extra = []) {
  const packages = new Map(extra);
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const m = /^(.*node_modules\/)((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) packages.set(m[2], join(root, m[1], m[2]));
    }
  }
  const sections = [];
  for (const [name, dir] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const files = await readdir(dir);
    const licenceFile = files.find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = licenceFile
      ? (await readFile(join(dir, licenceFile), 'utf8')).trim()
      : `(no licence file; package.json says: ${pkg.license ?? 'unknown'})`;
    sections.push(`${name}@${pkg.version} — ${pkg.license ?? 'unknown licence'}\n\n${text}`);
  }
  return `Countersign bundles the following packages.\n\n${sections.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}

// The OS keychain binding (@napi-rs/keyring, electron/core/auth/os-keychain.ts)
// is the one native part: a Node-API binary, prebuilt per platform, that
// loads in Node and in Electron without a rebuild. esbuild cannot bundle a
// .node file, so this platform's binary is copied beside the bundle, where
// os-keychain.ts looks first (electron-builder.yml unpacks it from the asar).
// Without it the app still runs and keeps tokens in a plain 0600 file, saying so.
/** @returns {string | undefined} the suffix @napi-rs/keyring names this platform's binary with */
function keyringTriple() {
  const { platform, arch } = process;
  if (platform === 'darwin') return `darwin-${arch}`;
  if (platform === 'win32') return `win32-${arch}-msvc`;
  if (platform !== 'linux') return undefined;
  const report = /** @type {{ header?: { glibcVersionRuntime?: string } } | undefined} */ (process.report?.getReport());
  return `linux-${arch}-${report?.header?.glibcVersionRuntime ? 'gnu' : 'musl'}`;
}

/**
 * @param {string} outDir
 * @returns {Promise<{ packages: Array<[string, string]> } | undefined>}
 */
async function copyKeyringBinary(outDir) {
  const triple = keyringTriple();
  const pkgDir = triple ? join(root, 'node_modules/@napi-rs', `keyring-${triple}`) : '';
  const file = `keyring.${triple}.node`;
  if (!triple || !(await exists(join(pkgDir, file)))) {
    step(
      `keychain binding: no prebuilt @napi-rs/keyring for ${process.platform}-${process.arch}; ` +
        'tokens stay a plain 0600 file',
    );
    return undefined;
  }
  step(`keychain binding -> ${relative(root, join(outDir, file))}`);
  await mkdir(outDir, { recursive: true });
  await copyFile(join(pkgDir, file), join(outDir, file));
  return {
    packages: [
      ['@napi-rs/keyring', join(root, 'node_modules/@napi-rs/keyring')],
      [`@napi-rs/keyring-${triple}`, pkgDir],
    ],
  };
}

async function main() {
  const started = Date.now();
  await rm(dist, { recursive: true, force: true });

  step('main process -> dist/electron/main.cjs');
  const mainResult = await build({
    ...common,
    entryPoints: [join(root, 'electron/main/main.ts')],
    outfile: join(dist, 'electron/main.cjs'),
    format: 'cjs',
    target: ELECTRON_NODE_TARGET,
    external: ['electron'],
    // ESM sources that locate files with import.meta.url (electron/demo/demo-servers.ts) get the bundle's own URL.
    banner: { js: "const __csImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { ...common.define, 'import.meta.url': '__csImportMetaUrl' },
  });
  assertSelfContained(mainResult, 'main.cjs', (p) => p === 'electron' || nodeRuntime(p));
  const keyringBinary = await copyKeyringBinary(join(dist, 'electron/native'));

  step('preload -> dist/electron/preload.cjs');
  // A sandboxed preload gets a tiny `require` that knows electron and a few
  // polyfills, and cannot load other files: it must be one file needing only electron.
  const preloadResult = await build({
    ...common,
    entryPoints: [join(root, 'electron/preload/preload.ts')],
    outfile: join(dist, 'electron/preload.cjs'),
    format: 'cjs',
    target: 'chrome130',
    external: ['electron'],
  });
  assertSelfContained(preloadResult, 'preload.cjs', (p) => p === 'electron');

  step('icons -> dist/electron/icons');
  const iconsOut = join(dist, 'electron/icons');
  await mkdir(iconsOut, { recursive: true });
  for (const file of await readdir(join(root, 'assets/runtime'))) {
    if (file.endsWith('.png')) await copyFile(join(root, 'assets/runtime', file), join(iconsOut, file));
  }

  const metafiles = [mainResult.metafile, preloadResult.metafile];
  const demoEntry = join(root, 'electron/demo/demo-server.ts');
  if (await exists(demoEntry)) {
    step('demo server -> dist/demo/demo-server.mjs');
    const demoResult = await build({
      ...common,
      entryPoints: [demoEntry],
      outfile: join(dist, 'demo/demo-server.mjs'),
      ...nodeEsm,
    });
    assertSelfContained(demoResult, 'demo-server.mjs', nodeRuntime);
    metafiles.push(demoResult.metafile);
  } else {
    step('demo server: electron/demo/demo-server.ts does not exist yet, skipped');
  }

  step('third-party notices -> dist/electron/THIRD_PARTY_NOTICES.txt');
  await writeFile(
    join(dist, 'electron/THIRD_PARTY_NOTICES.txt'),
    await thirdPartyNotices(metafiles, keyringBinary ? keyringBinary.packages : []),
  );

  if (!flags['no-cli']) {
    step('CLI -> dist/cli/countersign.mjs');
    const cliResult = await build({
      ...common,
      entryPoints: [join(root, 'electron/cli/main.ts')],
      outfile: join(dist, 'cli/countersign.mjs'),
      ...nodeEsm,
    });
    assertSelfContained(cliResult, 'countersign.mjs', nodeRuntime);
    await copyKeyringBinary(join(dist, 'cli/native'));
  }

  if (!flags['no-renderer']) {
    step('renderer -> dist/renderer (vite build)');
    if (!(await exists(join(root, 'vite.config.ts'))))
      throw new Error('vite.config.ts is missing: the renderer cannot be built');
    // A child process keeps Vite's config loading and plugins out of this one.
    const viteArgs = [
      'build',
      '--config',
      join(root, 'vite.config.ts'),
      '--outDir',
      join(dist, 'renderer'),
      '--emptyOutDir',
      // Warnings and errors only: the per-file size listing is noise in `npm start`.
      '--logLevel',
      'warn',
    ];
    const vite = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), ...viteArgs], {
      cwd: root,
      stdio: 'inherit',
      // Vite keeps an inherited NODE_ENV (vitest sets "test"), which would ship React's development build.
      // VITE_CONFIG_NATIVE_IGNORE_WARNING: Vite 8 loads the config with its bundling loader (the one
      // vite.config.ts's extensionless imports are written for, as the lint rules want) and advises on every
      // build about a native loader that may become the default in a later major; that upgrade will say so.
      env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    });
    if (vite.status !== 0) throw new Error(`vite build failed (exit ${vite.status})`);
    if (!(await exists(join(dist, 'renderer/index.html')))) {
      throw new Error(`vite build did not write ${join(dist, 'renderer/index.html')}`);
    }
  }

  step(`done in ${((Date.now() - started) / 1000).toFixed(1)} s (${relative(process.cwd(), dist) || '.'})`);
}

main().catch((e) => {
  process.stderr.write(`build: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
