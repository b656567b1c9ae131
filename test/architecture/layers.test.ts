// Imports point one way: renderer → shared; preload → shared; core → shared;
// main, cli, web, gateway, demo → core + shared. Only the Electron glue may
// import `electron`. ESLint enforces the same by specifier (eslint.config.mjs,
// no-restricted-imports per folder); this test checks the resolved targets,
// and first proves it found every folder it guards and every import form.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.[cm]?[jt]sx?$/.test(name) && !/\.test\.[cm]?[jt]sx?$/.test(name) && !name.endsWith('.d.ts'))
        out.push(p);
    }
  };
  // A guarded folder that is gone (renamed, moved) must fail the test, not pass it vacuously.
  walk(join(root, dir));
  if (out.length === 0) throw new Error(`layer ${dir}/ has no source files: update the layer list`);
  return out;
}

// from-imports and re-exports, dynamic import() (also with a plain template literal) and `typeof import()`,
// require(), and side-effect imports (`import 'electron'`).
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"`]([^'"`$]+)['"`]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** `electron` and its subpaths (`electron/main`, `electron/renderer`, …): the package, not the repo folder. */
const ELECTRON = /^electron(\/|$)/;
/** Node built-ins, with or without the node: prefix (`fs`, `node:fs/promises`); `punycode` is the npm package here. */
const isBuiltin = (spec: string) =>
  spec.startsWith('node:') || (builtinModules.includes(spec.split('/')[0]!) && !spec.startsWith('punycode'));

/** Every import of a file: [specifier, repo-relative target or null for packages]. */
function importsOf(file: string): Array<{ spec: string; target: string | null }> {
  return specifiers(readFileSync(file, 'utf8')).map((spec) => ({
    spec,
    target: spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : null,
  }));
}

/** Every module specifier in a source text. */
function specifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4])!);
}

function violations(
  dir: string,
  rule: (i: { spec: string; target: string | null }, file: string) => string | undefined,
): string[] {
  const found: string[] = [];
  for (const file of sources(dir)) {
    for (const i of importsOf(file)) {
      const why = rule(i, file);
      if (why) found.push(`${relative(root, file)} imports ${i.spec}: ${why}`);
    }
  }
  return found;
}

/** The folders under electron/ that the rules below place in a layer (core, glue, or a front end). */
const LAYER_FOLDERS = [
  'electron/core',
  'electron/main',
  'electron/preload',
  'electron/cli',
  'electron/web',
  'electron/gateway',
  'electron/demo',
];

const inside = (target: string | null, ...prefixes: string[]) =>
  target !== null && prefixes.some((p) => target === p || target.startsWith(`${p}/`));

/** The files of `dir` each import (relative imports resolved to the files they name). */
function importGraph(dir: string): Map<string, string[]> {
  const files = new Set(sources(dir).map((f) => relative(root, f)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(join(root, file)).flatMap(({ target }) => {
      if (target === null) return [];
      const hit = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((t) => files.has(t));
      return hit ? [hit] : [];
    });
    graph.set(file, targets);
  }
  return graph;
}

/** The import cycles of a graph: each a list of the files that import each other round (Tarjan's components). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('layers', () => {
  it('sees every import form, so a rule below cannot pass by not looking', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "import 'electron';",
      "  import './side-effect';",
      "const d = await import('node:fs');",
      "const e = require('electron');",
      "import { app } from 'electron/main';",
      'const f = import(`electron`);',
      "type G = typeof import('node:os');",
    ].join('\n');
    expect(specifiers(text)).toEqual([
      './a',
      '../b',
      './c',
      'electron',
      './side-effect',
      'node:fs',
      'electron',
      'electron/main',
      'electron',
      'node:os',
    ]);
    expect(['electron', 'electron/main', 'electron/renderer'].every((s) => ELECTRON.test(s))).toBe(true);
    expect(['fs', 'fs/promises', 'node:fs', 'child_process'].every(isBuiltin)).toBe(true);
    expect(['electron', 'react', './fs', 'punycode-x'].some(isBuiltin)).toBe(false);
  });

  it('fails for a guarded folder that is gone', () => {
    expect(() => sources('no-such-layer')).toThrow();
  });

  it('knows every folder under electron/: a new or renamed one must be given a layer here', () => {
    const folders = readdirSync(join(root, 'electron'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `electron/${d.name}`)
      .sort();
    expect(folders).toEqual([...LAYER_FOLDERS].sort());
  });

  it('shared/ imports only shared/ and pure packages', () => {
    expect(
      violations('shared', (i) => {
        if (i.target !== null) return inside(i.target, 'shared') ? undefined : 'shared may import only shared';
        return isBuiltin(i.spec) || ELECTRON.test(i.spec) || /^(react|@rjsf)/.test(i.spec)
          ? 'platform import in shared'
          : undefined;
      }),
    ).toEqual([]);
  });

  it('renderer/ imports only renderer/ and shared/, never Node or Electron', () => {
    expect(
      violations('renderer', (i, file) => {
        if (i.target !== null)
          return inside(i.target, 'renderer', 'shared') ? undefined : 'renderer may import only renderer and shared';
        // The one SDK piece the renderer runs: ext-apps' AppBridge, beside the app's frame.
        if (
          i.spec === '@modelcontextprotocol/ext-apps/app-bridge' &&
          inside(relative(root, file), 'renderer/src/views/tools/apps')
        )
          return undefined;
        return isBuiltin(i.spec) || ELECTRON.test(i.spec) || /^@modelcontextprotocol\//.test(i.spec)
          ? 'Node/Electron import in renderer'
          : undefined;
      }),
    ).toEqual([]);
  });

  it('electron/core is Electron-free and imports no front end', () => {
    expect(
      violations('electron/core', (i) => {
        if (ELECTRON.test(i.spec)) return 'core must not import electron';
        if (i.target !== null && !inside(i.target, 'electron/core', 'shared'))
          return 'core may import only core and shared';
        return undefined;
      }),
    ).toEqual([]);
  });

  it('finds an import cycle where there is one, and none where there is none', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(cycles(g({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(cycles(g({ a: ['b'], b: ['c'], c: ['a'], d: [] }))).toEqual([['a', 'b', 'c']]);
    expect(cycles(g({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  // The floors (eslint.config.mjs, CORE_FLOORS) keep rooms from importing each other; this keeps the files of
  // one room from it too (approval-server.ts and remote-sign-in.ts once did).
  it('no files of electron/core import each other in a circle', () => {
    const graph = importGraph('electron/core');
    // It sees the imports it guards: the façade's of its parts, and a folder's of its neighbours.
    expect(graph.get('electron/core/host.ts')).toContain('electron/core/host/call-runner.ts');
    expect(graph.get('electron/core/approval/approval-server.ts')).toContain('electron/core/approval/approval-host.ts');
    expect(cycles(graph)).toEqual([]);
  });

  it('preload imports only electron and the shared contract names', () => {
    expect(
      violations('electron/preload', (i) => {
        if (i.target === null)
          return ELECTRON.test(i.spec)
            ? undefined
            : 'the sandboxed preload bundles nothing but electron and shared names';
        return inside(i.target, 'shared/host-api', 'electron/preload')
          ? undefined
          : 'preload may import only shared/host-api';
      }),
    ).toEqual([]);
  });

  it('only the Electron glue (main, preload) imports electron', () => {
    const glue = ['electron/main', 'electron/preload'];
    const others = [
      'electron/cli',
      'electron/web',
      'electron/gateway',
      'electron/demo',
      'electron/core',
      'shared',
      'renderer',
    ];
    for (const dir of others)
      expect(violations(dir, (i) => (ELECTRON.test(i.spec) ? `${dir} must not import electron` : undefined))).toEqual(
        [],
      );
    expect(glue).toHaveLength(2);
  });

  it('front ends reach the core, never each other', () => {
    for (const dir of ['electron/cli', 'electron/web', 'electron/gateway', 'electron/main']) {
      expect(
        violations(dir, (i) => {
          if (i.target === null) return undefined;
          if (inside(i.target, dir, 'electron/core', 'shared', 'electron/demo')) return undefined;
          // The CLI is the one front end that may start the others (`countersign web`, `gateway`).
          if (dir === 'electron/cli' && inside(i.target, 'electron/web', 'electron/gateway')) return undefined;
          return `${dir} may import only core, shared and the demo server`;
        }),
      ).toEqual([]);
    }
  });
});
