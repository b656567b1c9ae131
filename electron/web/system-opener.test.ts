// The system opener: one argument (a launcher page's path), no shell. The spawn
// test puts a stand-in xdg-open first on PATH that records exactly the argv it received.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkExternalUrl, MAX_EXTERNAL_URL_LENGTH } from '../../shared/url/external-url';
import { openFileWithSystem, openWithSystem, runOpener, systemOpenerCommand } from './system-opener';

describe('systemOpenerCommand', () => {
  const url = '/tmp/countersign-open-a b;rm -rf %USERNAME%/open-countersign.html';
  it('passes the launcher page as a single argument on every platform', () => {
    expect(systemOpenerCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(systemOpenerCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(systemOpenerCommand(url, 'win32')).toEqual({
      command: 'rundll32.exe',
      args: ['url.dll,FileProtocolHandler', url],
    });
  });
});

describe('openWithSystem', () => {
  const savedPath = process.env.PATH;
  let dir = '';
  afterEach(() => {
    process.env.PATH = savedPath;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses anything but http and https without running anything', async () => {
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'mailto:a@b.c', 'not a url', '']) {
      await expect(openWithSystem(bad, 'linux')).rejects.toThrow(/refusing/);
    }
  });

  // One URL rule (issue 9, item 13): what Electron's openExternal gate refuses, this opener refuses too.
  it('applies the same rule as the Electron gate: http only to this computer, spelled exactly, and a length cap', async () => {
    const refusedByBoth = [
      'http://localhost./',
      'http://127.0.0.1.nip.io/',
      'http://localhost.evil.example/',
      'http://example.com/',
      `https://example.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`,
    ];
    for (const url of refusedByBoth) {
      expect(checkExternalUrl(url).ok, url).toBe(false);
      await expect(openWithSystem(url, 'linux'), url).rejects.toThrow(/refusing to open/);
    }
  });

  it('refuses to open anything but an existing file as a launcher page', async () => {
    await expect(openFileWithSystem('relative.html', 'linux')).rejects.toThrow(/not an existing file/);
    await expect(openFileWithSystem(join(tmpdir(), 'no-such-launcher.html'), 'linux')).rejects.toThrow(
      /not an existing file/,
    );
    await expect(openFileWithSystem(tmpdir(), 'linux')).rejects.toThrow(/not an existing file/);
  });

  it.skipIf(process.platform === 'win32')(
    'gives the opener one argument, a private launcher page, and never the URL itself',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'countersign-opener-'));
      const log = join(dir, 'argv.json');
      const fake = join(dir, 'xdg-open');
      // Records its argv and what the page it was given says.
      writeFileSync(
        fake,
        `#!${process.execPath}\nconst fs = require('fs'); const a = process.argv.slice(2);\n` +
          `fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: a, page: fs.readFileSync(a[0], 'utf8') }));\n`,
      );
      chmodSync(fake, 0o755);
      process.env.PATH = `${dir}:${savedPath}`;
      const url = 'http://127.0.0.1:4000/consent/x?a=1&b=$(touch /tmp/pwned);c=`id`&state=s3cr3t#frag';
      const opened = await openWithSystem(url, 'linux');
      const seen = await (async () => {
        for (let i = 0; i < 100; i++) {
          try {
            return JSON.parse(readFileSync(log, 'utf8')) as { argv: string[]; page: string };
          } catch {
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        throw new Error('the opener never ran');
      })();
      expect(seen.argv).toHaveLength(1);
      expect(seen.argv[0]).toMatch(/\/countersign-open-[^/]+\/open-countersign\.html$/);
      expect(seen.argv[0]).not.toContain('s3cr3t');
      expect(seen.page).toContain(`url=${new URL(url).href.replace(/&/g, '&amp;')}"`);
      expect(existsSync(seen.argv[0]!)).toBe(true);
      await opened.close();
      expect(existsSync(dirname(seen.argv[0]!))).toBe(false);
    },
  );

  it.skipIf(process.platform === 'win32')('rejects with a clear error when the opener is missing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'countersign-opener-'));
    process.env.PATH = dir;
    await expect(openWithSystem('https://example.com/', 'linux')).rejects.toThrow(/cannot open the link with xdg-open/);
  });
});

describe('the opener’s verdict', () => {
  it('an opener that exits non-zero (no desktop session) is a failure, not "opened"', async () => {
    await expect(runOpener('false', [])).rejects.toThrow(/false could not open it \(exit code 1\)/);
    await expect(runOpener('true', [])).resolves.toBeUndefined();
  });
});
