#!/usr/bin/env node
// @ts-check
// The CLI as the source tree runs it: one esbuild bundle in .cache/cli/,
// rebuilt whenever a source it was built from changed, so it is never stale.
// Through tsx every start paid for the TypeScript loader's worker thread and
// a resolution round trip per module: the gateway was ready for `initialize`
// after about 1.1 s, the bundle after about 0.3 s (`npm run bench`, "CLI
// start"). `npm test` builds it once before the suites (`node
// scripts/cli-bundle.mjs`), so parallel tests never race to build it.
//
// Fresh means: every file the last build read (esbuild's metafile: our
// sources, not node_modules) still exists with the size and mtime it had,
// and package-lock.json is unchanged (which covers node_modules). Checking
// costs a stat per source file, a few milliseconds.
//
// The bundle is code this user runs, so it is kept like a private file: the
// folder 0700 and the files 0600, owned by this user. A bundle, stamp or
// folder that another user owns, that others may write, or that is a
// symbolic link is never run: it is built anew (and the launcher falls back
// to the sources if the folder cannot be made private).
import { chmod, lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.cache', 'cli');
/** The bundle's path. */
export const CLI_BUNDLE = join(outDir, 'countersign.mjs');
const STAMP = join(outDir, 'inputs.json');

/** @typedef {{ files: Record<string, [number, number]> }} Stamp  size and mtime (ms) of each input, by path */

/** @param {string} file */
async function fingerprint(file) {
  const s = await stat(file);
  return /** @type {[number, number]} */ ([s.size, Math.floor(s.mtimeMs)]);
}

/**
 * The first input of `stamp` (paths relative to `base`) whose size or mtime differs from the stamp's, or that is
 * gone; undefined when none is.
 * @param {Stamp} stamp
 * @param {string} base
 */
export async function staleInput(stamp, base) {
  const checks = await Promise.all(
    Object.entries(stamp.files).map(async ([file, [size, mtime]]) => {
      try {
        const [s, m] = await fingerprint(join(base, file));
        return s === size && m === mtime ? undefined : file;
      } catch {
        return file; // removed or renamed
      }
    }),
  );
  return checks.find((f) => f !== undefined);
}

/**
 * Why `path` may not be trusted as this user's own (another owner, writable by others, a link), or undefined.
 * @param {string} path
 * @param {boolean} folder
 */
export async function foreignProblem(path, folder) {
  const s = await lstat(path);
  if (s.isSymbolicLink()) return `${path} is a symbolic link`;
  if (folder ? !s.isDirectory() : !s.isFile()) return `${path} is not a ${folder ? 'folder' : 'file'}`;
  if (typeof process.getuid === 'function' && s.uid !== process.getuid())
    return `${path} belongs to another user (uid ${s.uid})`;
  if ((s.mode & 0o022) !== 0) return `${path} is writable by others (mode ${(s.mode & 0o777).toString(8)})`;
  return undefined;
}

/** True when the bundle exists, is this user's own, and every input still has the size and mtime it was built from. */
export async function isFresh() {
  /** @type {Stamp} */
  let stamp;
  try {
    for (const [path, folder] of /** @type {const} */ ([
      [outDir, true],
      [CLI_BUNDLE, false],
      [STAMP, false],
    ]))
      if (await foreignProblem(path, folder)) return false;
    stamp = JSON.parse(await readFile(STAMP, 'utf8'));
  } catch {
    return false;
  }
  return (await staleInput(stamp, root)) === undefined;
}

/**
 * The stamp of `files` (paths relative to `base`) as they are now.
 * @param {string[]} files
 * @param {string} base
 * @returns {Promise<Stamp>}
 */
export async function stampOf(files, base) {
  /** @type {Stamp} */
  const stamp = { files: {} };
  for (const file of files) stamp.files[file] = await fingerprint(join(base, file));
  return stamp;
}

/** Builds the bundle (to a private name first, so a process starting meanwhile never loads half a file). */
export async function buildCliBundle() {
  const { build } = await import('esbuild');
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  // A folder made under a looser umask, or by an older version, is tightened; one that is not ours is refused.
  const folder = await lstat(outDir);
  if (folder.isSymbolicLink() || !folder.isDirectory() || (process.getuid && folder.uid !== process.getuid()))
    throw new Error(`${outDir} is not this user's own folder; not building the CLI there`);
  await chmod(outDir, 0o700);
  const tmp = join(outDir, `countersign.${process.pid}.${Date.now()}.mjs`);
  try {
    const result = await build({
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      entryPoints: [join(root, 'electron/cli/main.ts')],
      outfile: tmp,
      metafile: true,
      sourcemap: 'linked', // `node --enable-source-maps bin/countersign.mjs …` maps stack traces to the sources
      logLevel: 'warning',
      define: { 'process.env.NODE_ENV': '"production"' },
      // The keychain binding is a Node-API binary, loaded from node_modules at run time; ws's native
      // speed-ups are optional and never installed.
      external: ['@napi-rs/keyring', 'bufferutil', 'utf-8-validate'],
      // As scripts/build.mjs: jsonc-parser's UMD main loads its parts with a require() a bundler cannot follow.
      alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
      banner: {
        js:
          "import { createRequire as __csCreateRequire } from 'node:module'; " +
          'const require = __csCreateRequire(import.meta.url);',
      },
    });
    const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/'));
    // This script too: a change to how it builds is a change to the bundle.
    const stamp = await stampOf([...inputs, 'scripts/cli-bundle.mjs', 'package-lock.json', 'package.json'], root);
    await chmod(tmp, 0o600);
    await chmod(`${tmp}.map`, 0o600);
    await rename(`${tmp}.map`, `${CLI_BUNDLE}.map`);
    await rename(tmp, CLI_BUNDLE);
    const stampTmp = `${tmp}.json`;
    await writeFile(stampTmp, JSON.stringify(stamp), { mode: 0o600 });
    await rename(stampTmp, STAMP);
  } finally {
    await rm(tmp, { force: true });
    await rm(`${tmp}.map`, { force: true });
  }
}

/** The bundle's file URL, built first when it is missing or stale. */
export async function freshCliBundle() {
  if (!(await isFresh())) await buildCliBundle();
  return pathToFileURL(CLI_BUNDLE).href;
}

// `node scripts/cli-bundle.mjs`: build it now if it is not fresh (npm test does, before the suites).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = await isFresh();
  if (!fresh) await buildCliBundle();
  process.stdout.write(`CLI bundle ${fresh ? 'is fresh' : 'built'}: ${CLI_BUNDLE}\n`);
}
