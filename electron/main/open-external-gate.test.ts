import { describe, expect, it, vi } from 'vitest';
import { checkExternalUrl, MAX_EXTERNAL_URL_LENGTH, OpenExternalGate } from './open-external-gate';

describe('checkExternalUrl', () => {
  it.each([
    ['https://example.com/login', 'https://example.com/login'],
    ['HTTPS://Example.COM', 'https://example.com/'],
    ['http://localhost:8080/cb?code=1', 'http://localhost:8080/cb?code=1'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/'],
    ['http://127.45.0.9/', 'http://127.45.0.9/'],
    ['http://[::1]:5000/x', 'http://[::1]:5000/x'],
    // Warnings the human saw and accepted do not block:
    ['https://user:pw@example.com/', 'https://user:pw@example.com/'],
    ['https://xn--pple-43d.com/', 'https://xn--pple-43d.com/'],
    ['https://203.0.113.9/', 'https://203.0.113.9/'],
    // What reaches the OS is serialised: no raw spaces or quotes for a shell opener.
    ['https://example.com/a b"c', 'https://example.com/a%20b%22c'],
  ])('allows %s', (url, href) => {
    expect(checkExternalUrl(url)).toEqual({ ok: true, href });
  });

  it.each([
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['file:///etc/passwd'],
    ['file://server/share/x.exe'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox'],
    ['ms-msdt:/id PCWDiagnostic'],
    ['search-ms:query=x'],
    ['smb://host/share'],
    ['ftp://example.com/x'],
    ['mailto:a@example.com'],
    ['countersign://open'],
    ['about:blank'],
    ['blob:https://example.com/1'],
    ['http://example.com/'],
    ['http://10.0.0.1/'],
    ['http://localhost.evil.com/'],
    ['http://127.0.0.1.nip.io/'],
    ['not a url'],
    [''],
  ])('refuses %s', (url) => {
    expect(checkExternalUrl(url).ok).toBe(false);
  });

  it('refuses non-strings and absurdly long URLs', () => {
    expect(checkExternalUrl(undefined).ok).toBe(false);
    expect(checkExternalUrl({ href: 'https://example.com' }).ok).toBe(false);
    expect(checkExternalUrl(`https://example.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`).ok).toBe(false);
  });
});

describe('OpenExternalGate', () => {
  const setup = () => {
    const opened: string[] = [];
    const log = vi.fn();
    const gate = new OpenExternalGate(async (url) => void opened.push(url), log);
    return { gate, opened, log };
  };

  it('opens a consented URL exactly once', async () => {
    const { gate, opened } = setup();
    const withdraw = gate.consent('https://example.com/a');
    await gate.openExternal('https://example.com/a');
    expect(opened).toEqual(['https://example.com/a']);
    await expect(gate.openExternal('https://example.com/a')).rejects.toThrow(/did not consent/);
    withdraw();
    expect(opened).toHaveLength(1);
  });

  it('refuses URLs nobody consented to, even harmless ones', async () => {
    const { gate, opened, log } = setup();
    await expect(gate.openExternal('https://example.com/')).rejects.toThrow(/did not consent/);
    gate.consent('https://example.com/a');
    await expect(gate.openExternal('https://example.com/b')).rejects.toThrow(/did not consent/);
    // Consent is for the exact string: not a normalised, prefixed or differently cased form.
    await expect(gate.openExternal('https://example.com/a/')).rejects.toThrow(/did not consent/);
    await expect(gate.openExternal('https://EXAMPLE.com/a')).rejects.toThrow(/did not consent/);
    expect(opened).toEqual([]);
    expect(log).toHaveBeenCalled();
  });

  it('refuses consented URLs that fail the scheme allowlist, and uses up the consent', async () => {
    const { gate, opened } = setup();
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'http://example.com/',
      'countersign://x',
    ]) {
      gate.consent(url);
      await expect(gate.openExternal(url)).rejects.toThrow(/refused to open the link/);
      expect(gate.isConsented(url)).toBe(false);
    }
    expect(opened).toEqual([]);
  });

  it('forgets a consent when it is withdrawn unused', async () => {
    const { gate, opened } = setup();
    const withdraw = gate.consent('https://example.com/a');
    expect(gate.isConsented('https://example.com/a')).toBe(true);
    withdraw();
    withdraw(); // idempotent
    expect(gate.isConsented('https://example.com/a')).toBe(false);
    await expect(gate.openExternal('https://example.com/a')).rejects.toThrow();
    expect(opened).toEqual([]);
  });

  it('keeps two consents to the same link apart', async () => {
    const { gate, opened } = setup();
    const first = gate.consent('https://example.com/a');
    gate.consent('https://example.com/a');
    await gate.openExternal('https://example.com/a');
    first(); // the first request ends; the second request's consent must survive
    expect(gate.isConsented('https://example.com/a')).toBe(true);
    await gate.openExternal('https://example.com/a');
    expect(opened).toHaveLength(2);
  });

  it('hands the OS the serialised URL', async () => {
    const { gate, opened } = setup();
    gate.consent('https://example.com/a b');
    await gate.openExternal('https://example.com/a b');
    expect(opened).toEqual(['https://example.com/a%20b']);
  });
});
