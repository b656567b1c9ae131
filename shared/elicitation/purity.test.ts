/// <reference types="vite/client" />
// shared/ is imported by the Node core, the CLI and the sandboxed renderer, so
// its runtime files must not reach for Node, Electron, React or the DOM. This
// reads every non-test source file under shared/ (through Vite, so the test
// itself needs no node:fs) and fails on a forbidden import or global.
import { describe, it, expect } from 'vitest';

const sources = import.meta.glob(['../**/*.ts', '!../**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'punycode',
  'querystring',
  'readline',
  'stream',
  'string_decoder',
  'timers',
  'tls',
  'url',
  'util',
  'vm',
  'worker_threads',
  'zlib',
];

function forbiddenSpecifier(spec: string): boolean {
  return (
    spec.startsWith('node:') ||
    NODE_BUILTINS.includes(spec) ||
    spec === 'electron' ||
    spec.startsWith('electron/') ||
    spec === 'react' ||
    spec.startsWith('react/') ||
    spec.startsWith('react-dom') ||
    spec.startsWith('@rjsf/')
  );
}

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('shared/ stays platform-free', () => {
  it('finds the files it guards', () => {
    expect(Object.keys(sources)).toEqual(expect.arrayContaining(['./schema-rules.ts', '../url/analyze-url.ts']));
  });

  it.each(Object.entries(sources))('%s imports nothing platform-specific', (_file, code) => {
    const clean = stripComments(code);
    const specs = [...clean.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map(
      (m) => m[1]!,
    );
    expect(specs.filter(forbiddenSpecifier)).toEqual([]);
    expect(
      clean.match(/\b(?:window|document|navigator|localStorage|sessionStorage|process|Buffer|require)\s*[.(]/g),
    ).toBeNull();
  });
});
