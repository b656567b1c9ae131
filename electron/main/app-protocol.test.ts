import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_INDEX_URL,
  appResponseHeaders,
  contentTypeFor,
  createAppRequestHandler,
  isAppUrl,
  resolveAppRequest,
} from './app-protocol';
import { CONTENT_SECURITY_POLICY } from './csp';

const ROOT = '/opt/countersign/dist/renderer';

describe('app:// URL resolution', () => {
  it('maps app URLs to files under the root', () => {
    expect(resolveAppRequest('app://countersign/index.html', ROOT)).toEqual({
      ok: true,
      path: join(ROOT, 'index.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(resolveAppRequest('app://countersign/', ROOT)).toMatchObject({ ok: true, path: join(ROOT, 'index.html') });
    expect(resolveAppRequest('app://countersign/assets/app-1.js?v=2#x', ROOT)).toMatchObject({
      ok: true,
      path: join(ROOT, 'assets', 'app-1.js'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppRequest('app://countersign/assets/a%20b.css', ROOT)).toMatchObject({
      ok: true,
      path: join(ROOT, 'assets', 'a b.css'),
    });
  });

  it.each([
    [
      'dot-dot folded by the parser stays inside',
      'app://countersign/../../etc/passwd',
      { ok: true, path: join(ROOT, 'etc', 'passwd') },
    ],
    ['encoded dot-dot', 'app://countersign/%2e%2e/%2e%2e/etc/passwd', { ok: true, path: join(ROOT, 'etc', 'passwd') }],
  ])('%s', (_label, url, expected) => {
    expect(resolveAppRequest(url, ROOT)).toMatchObject(expected);
  });

  it.each([
    ['an encoded slash', 'app://countersign/..%2f..%2fetc/passwd', 403],
    ['an encoded backslash', 'app://countersign/..%5c..%5cwindows', 403],
    ['a NUL byte', 'app://countersign/index.html%00.png', 403],
    ['a drive letter', 'app://countersign/C:%5cWindows', 403],
    ['a malformed escape', 'app://countersign/%E0%A4%A', 400],
    ['another host', 'app://evil/index.html', 403],
    ['another scheme', 'file:///etc/passwd', 403],
    ['garbage', 'not a url', 400],
  ] as const)('refuses %s', (_label, url, status) => {
    expect(resolveAppRequest(url, ROOT)).toEqual({ ok: false, status });
  });

  it('knows its own origin', () => {
    expect(isAppUrl(APP_INDEX_URL)).toBe(true);
    expect(isAppUrl('app://countersign/assets/x.js')).toBe(true);
    expect(isAppUrl('app://countersign.evil/')).toBe(false);
    expect(isAppUrl('https://countersign/')).toBe(false);
    expect(isAppUrl('')).toBe(false);
  });

  it('types files and sends the CSP with every response', () => {
    expect(contentTypeFor('a.MJS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('a.woff2')).toBe('font/woff2');
    expect(contentTypeFor('a.exe')).toBe('application/octet-stream');
    const headers = appResponseHeaders('text/html; charset=utf-8');
    expect(headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('app:// request handler', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'countersign-proto-'));
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(join(root, 'assets', 'app.js'), 'export {}');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const handler = () => createAppRequestHandler(root, (p) => readFile(p));

  it('serves files with their type and the security headers', async () => {
    const res = await handler()({ url: 'app://countersign/assets/app.js', method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await res.text()).toBe('export {}');
  });

  it('answers HEAD without a body, and refuses other methods', async () => {
    const head = await handler()({ url: APP_INDEX_URL, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await handler()({ url: APP_INDEX_URL, method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('404s missing files and 403s escapes', async () => {
    expect((await handler()({ url: 'app://countersign/missing.js', method: 'GET' })).status).toBe(404);
    expect((await handler()({ url: 'app://countersign/..%2f..%2fetc%2fpasswd', method: 'GET' })).status).toBe(403);
    expect((await handler()({ url: 'app://elsewhere/index.html', method: 'GET' })).status).toBe(403);
  });
});
