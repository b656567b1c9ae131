// Links leave through a private launcher page: the opener is given only its
// path; the page is checked by the one URL rule first, escapes the link, sends
// no referrer, and goes away when closed, after its lifetime, or on failure.
import { existsSync, mkdtempSync, readFileSync, readdirSync as readdir, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launcherHtml, openLinkThroughLauncher } from './launcher-file';

let parent = '';
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'countersign-launchers-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(parent, { recursive: true, force: true });
});

describe('launcherHtml', () => {
  it('escapes the link and sends no referrer', () => {
    const html = launcherHtml('https://x.example/?a="><script>alert(1)</script>&b=\'', 'Continue');
    expect(html).not.toContain('<script>');
    expect(html).toContain('url=https://x.example/?a=&quot;&gt;&lt;script&gt;');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain('rel="noreferrer"');
  });
});

describe('openLinkThroughLauncher', () => {
  it('gives the opener only the path of a 0600 page in a fresh 0700 folder, and removes it when closed', async () => {
    const link =
      'https://as.example/authorize?state=s3cr3t&code_challenge=ch4ll&redirect_uri=http%3A%2F%2F127.0.0.1%3A4';
    const given: string[] = [];
    const opened = await openLinkThroughLauncher(link, async (path) => void given.push(path), { parent });
    expect(given).toHaveLength(1);
    const path = given[0]!;
    expect(path.startsWith(parent)).toBe(true);
    expect(path).not.toMatch(/s3cr3t|ch4ll/);
    if (process.platform !== 'win32') {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    }
    expect(readFileSync(path, 'utf8')).toContain(`url=${link.replace(/&/g, '&amp;')}"`);
    await opened.close();
    expect(existsSync(dirname(path))).toBe(false);
    await opened.close(); // idempotent
  });

  it('applies the one URL rule before anything is written or opened', async () => {
    const openFile = vi.fn(async () => undefined);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/', 'not a url'])
      await expect(openLinkThroughLauncher(bad, openFile, { parent })).rejects.toThrow(/refusing to open/);
    expect(openFile).not.toHaveBeenCalled();
    expect(readdir(parent)).toEqual([]);
  });

  it('removes the page when the opener fails', async () => {
    let path = '';
    await expect(
      openLinkThroughLauncher(
        'https://x.example/',
        async (p) => {
          path = p;
          throw new Error('no browser');
        },
        { parent },
      ),
    ).rejects.toThrow('no browser');
    expect(path).not.toBe('');
    expect(readdir(parent)).toEqual([]);
  });

  it('removes the page after its lifetime when nothing closes it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let path = '';
    await openLinkThroughLauncher('https://x.example/', async (p) => void (path = p), { parent, lifetimeMs: 1000 });
    expect(existsSync(path)).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    vi.useRealTimers();
    await vi.waitFor(() => expect(existsSync(dirname(path))).toBe(false));
  });
});
