import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ConsentSite } from './consent-site';

const site = new ConsentSite();
afterAll(() => site.close());

function get(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path: u.pathname, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('ConsentSite', () => {
  it('serves a page with an Authorize button on 127.0.0.1 and records the visit and the consent', async () => {
    const { id, url } = await site.create('read your work calendar');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/consent\/[A-Za-z0-9_-]{24}$/);
    expect(site.status(id)).toEqual({ visited: false, authorized: false });
    const page = await fetch(url);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('read your work calendar');
    expect(html).toContain('<button type="submit">Authorize</button>');
    expect(site.status(id)).toEqual({ visited: true, authorized: false });
    const waiting = site.waitForAuthorization(id, 5000);
    const nonce = /name="nonce" value="([^"]+)"/.exec(html)![1]!;
    expect((await fetch(`${url}/authorize`, { method: 'POST', body: new URLSearchParams({ nonce }) })).status).toBe(
      200,
    );
    expect(await waiting).toBe(true);
    expect(site.status(id)).toEqual({ visited: true, authorized: true });
  });

  it('refuses an authorize without the page nonce, a foreign Host, unknown requests and other methods', async () => {
    const { id, url } = await site.create('x');
    expect((await fetch(`${url}/authorize`, { method: 'POST', body: 'nonce=guess' })).status).toBe(403);
    await fetch(url);
    expect((await fetch(`${url}/authorize`, { method: 'POST', body: 'nonce=guess' })).status).toBe(403);
    expect(site.status(id)?.authorized).toBe(false);
    expect(await get(url, `localhost:${new URL(url).port}`)).toBe(403);
    expect((await fetch(url.replace(/[^/]{24}$/, 'A'.repeat(24)))).status).toBe(404);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(405);
    expect(await site.waitForAuthorization(id, 50)).toBe(false);
    expect(await site.waitForAuthorization('unknown', 50)).toBe(false);
  });
});
