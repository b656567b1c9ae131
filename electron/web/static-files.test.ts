import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, resolveStaticPath, securityHeaders } from './static-files';

describe('resolveStaticPath', () => {
  let base: string;
  let root: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'countersign-static-')));
    root = join(base, 'r');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), 'x');
    writeFileSync(join(root, 'assets', 'a.js'), 'x');
    writeFileSync(join(base, 'outside.txt'), 'x');
    symlinkSync(join(base, 'outside.txt'), join(root, 'assets', 'out.txt'));
    symlinkSync(join(root, 'assets', 'a.js'), join(root, 'assets', 'alias.js'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('maps / to index.html and serves files inside the folder', async () => {
    expect(await resolveStaticPath(root, '/')).toEqual({ file: join(root, 'index.html') });
    expect(await resolveStaticPath(root, '/assets/a.js?v=1')).toEqual({ file: join(root, 'assets', 'a.js') });
    expect(await resolveStaticPath(root, '/assets/alias.js')).toEqual({ file: join(root, 'assets', 'a.js') });
    expect(await resolveStaticPath(root, '/settings')).toEqual({ file: join(root, 'index.html') });
  });

  it('never serves the test page with a fake host, nor its chunks', async () => {
    writeFileSync(join(root, 'harness.html'), 'x');
    writeFileSync(join(root, 'assets', 'harness-abc123.js'), 'x');
    expect(await resolveStaticPath(root, '/harness.html')).toMatchObject({ status: 404 });
    expect(await resolveStaticPath(root, '/assets/harness-abc123.js')).toMatchObject({ status: 404 });
  });

  it('refuses traversal, encoded separators, NUL, hidden files and symlinks out', async () => {
    expect(await resolveStaticPath(root, '/../outside.txt')).toMatchObject({ status: 403 });
    expect(await resolveStaticPath(root, '/assets/%2e%2e/%2e%2e/outside.txt')).toMatchObject({ status: 403 });
    expect(await resolveStaticPath(root, '/assets/..%2F..%2Foutside.txt')).toMatchObject({ status: 400 });
    expect(await resolveStaticPath(root, '/..%5Coutside.txt')).toMatchObject({ status: 400 });
    expect(await resolveStaticPath(root, '/a\\b')).toMatchObject({ status: 400 });
    expect(await resolveStaticPath(root, '/index.html%00.js')).toMatchObject({ status: 400 });
    expect(await resolveStaticPath(root, '/%zz')).toMatchObject({ status: 400 });
    expect(await resolveStaticPath(root, '/.git/config')).toMatchObject({ status: 404 });
    expect(await resolveStaticPath(root, '/assets/out.txt')).toMatchObject({ status: 403 });
    expect(await resolveStaticPath(root, '/assets/missing.js')).toMatchObject({ status: 404 });
    expect(await resolveStaticPath(root, '/assets')).toMatchObject({ status: 404 });
  });
});

describe('content types and headers', () => {
  it('knows the renderer build types and falls back to opaque bytes', () => {
    expect(contentTypeOf('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('a.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('a.exe')).toBe('application/octet-stream');
  });
  it('allows the socket of this origin only', () => {
    const h = securityHeaders('http://127.0.0.1:4321');
    expect(h['Content-Security-Policy']).toContain('connect-src ws://127.0.0.1:4321;');
    expect(h['Content-Security-Policy']).toMatch(/^default-src 'none'; /);
  });
});
