import { describe, it, expect } from 'vitest';
import { analyzeUrl, MAX_URL_LENGTH } from './analyze-url';
import type { UrlWarningCode } from '../elicitation/types';

const codes = (href: string): UrlWarningCode[] => analyzeUrl(href).warnings.map((w) => w.code);

describe('analyzeUrl: allowed links', () => {
  it('accepts a plain https link with no warnings', () => {
    expect(analyzeUrl('https://example.com/path?q=1#x')).toEqual({
      href: 'https://example.com/path?q=1#x',
      scheme: 'https',
      host: 'example.com',
      hostUnicode: 'example.com',
      registrableDomain: 'example.com',
      registrableDomainUnicode: 'example.com',
      loopback: false,
      warnings: [],
      blocked: false,
      lookalike: false,
    });
  });

  it('keeps the href exactly as sent, while host is the parsed, lower-cased one', () => {
    const a = analyzeUrl('HTTPS://Sub.Example.COM/A');
    expect(a.href).toBe('HTTPS://Sub.Example.COM/A');
    expect(a.scheme).toBe('https');
    expect(a.host).toBe('sub.example.com');
    expect(a.registrableDomain).toBe('example.com');
  });

  it.each(['http://127.0.0.1:8080/callback', 'http://127.8.9.10/', 'http://localhost:3000/', 'http://[::1]:5000/x'])(
    'allows http to loopback %s, without a raw-ip warning',
    (href) => {
      const a = analyzeUrl(href);
      expect(a.blocked).toBe(false);
      expect(a.loopback).toBe(true);
      expect(a.warnings).toEqual([]);
    },
  );

  it('recognises loopback written in odd numeric forms, as the browser would', () => {
    const a = analyzeUrl('http://0x7f.1:8080/');
    expect(a.host).toBe('127.0.0.1');
    expect(a.blocked).toBe(false);
  });

  it('treats only the three loopback forms as loopback', () => {
    for (const href of [
      'http://localhost./',
      'http://foo.localhost/',
      'http://[::ffff:127.0.0.1]/',
      'http://128.0.0.1/',
    ]) {
      const a = analyzeUrl(href);
      expect(a.loopback, href).toBe(false);
      expect(a.blocked, href).toBe(true);
    }
  });
});

describe('analyzeUrl: blocked links', () => {
  it('blocks http outside loopback and says so', () => {
    const a = analyzeUrl('http://example.com/login');
    expect(a.blocked).toBe(true);
    expect(a.warnings).toEqual([{ code: 'http-not-loopback', message: expect.stringContaining('example.com') }]);
  });

  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['  JavaScript:alert(1)', 'javascript'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['file:///etc/passwd', 'file'],
    ['vscode://extension/x', 'vscode'],
    ['ftp://example.com/', 'ftp'],
    ['blob:https://example.com/uuid', 'blob'],
    ['mailto:a@example.com', 'mailto'],
    ['ws://127.0.0.1/', 'ws'],
  ])('blocks %s', (href, scheme) => {
    const a = analyzeUrl(href);
    expect(a.blocked).toBe(true);
    expect(a.scheme).toBe(scheme);
    expect(a.warnings[0]).toEqual({ code: 'blocked-scheme', message: expect.stringContaining(`"${scheme}:"`) });
  });

  it.each([
    '',
    'garbage',
    'https://',
    'https://exa mple.com/',
    '//example.com/',
    'https://999.1.1.1/',
    'https://xn--zz.com/',
    'https://login.xn--zzzzzz.example/',
    'https://xn--abc-.com/',
    'https://xn--kz9bjt.com/',
    'https://xn--mnchen-psa.de/',
    'https://xn--a.com/',
  ])('blocks unparseable %j', (href) => {
    const a = analyzeUrl(href);
    expect(a.blocked).toBe(true);
    expect(codes(href)).toEqual(['unparseable']);
    expect(a).toMatchObject({ href, scheme: '', host: '', hostUnicode: '', registrableDomain: '' });
  });

  it('opens valid Punycode while refusing the invalid (the same on every runtime)', () => {
    expect(analyzeUrl('https://xn--bcher-kva.example/')).toMatchObject({
      blocked: false,
      hostUnicode: 'bücher.example',
    });
    expect(analyzeUrl('https://xn--bcher-kva.xn--zz.example/')).toMatchObject({ blocked: true, host: '' });
  });

  it('treats a non-string (a lying server) as unparseable', () => {
    expect(analyzeUrl(42 as unknown as string)).toMatchObject({ href: '', blocked: true });
  });
});

describe('analyzeUrl: warnings', () => {
  it('warns about embedded credentials and names the real host', () => {
    const a = analyzeUrl('https://accounts.google.com@evil.example/');
    expect(a.host).toBe('evil.example');
    expect(a.blocked).toBe(false);
    expect(a.warnings).toEqual([{ code: 'credentials', message: expect.stringContaining('evil.example') }]);
    expect(codes('https://user:pass@example.com/')).toEqual(['credentials']);
  });

  it('warns about a raw IPv4 host', () => {
    const a = analyzeUrl('https://203.0.113.7/login');
    expect(codes('https://203.0.113.7/login')).toEqual(['raw-ip']);
    expect(a.registrableDomain).toBe('203.0.113.7');
    expect(a.hostUnicode).toBe('203.0.113.7');
  });

  it('warns about a raw IPv6 host', () => {
    const a = analyzeUrl('https://[2001:db8::1]:8443/');
    expect(a.host).toBe('[2001:db8::1]');
    expect(codes('https://[2001:db8::1]:8443/')).toEqual(['raw-ip']);
  });

  it('shows the Unicode form of a Punycode lookalike and warns twice', () => {
    const a = analyzeUrl('https://xn--pple-43d.com/');
    expect(a.host).toBe('xn--pple-43d.com');
    expect(a.hostUnicode).toBe('\u0430pple.com'); // Cyrillic а + Latin pple
    expect(a.registrableDomain).toBe('xn--pple-43d.com');
    expect(a.registrableDomainUnicode).toBe('\u0430pple.com');
    expect(a.blocked).toBe(false);
    expect(codes('https://xn--pple-43d.com/')).toEqual(['punycode', 'mixed-script', 'confusable']);
    expect(a.warnings[1]?.message).toMatch(/Cyrillic and Latin/);
  });

  it('analyses a host given in Unicode the same way', () => {
    const a = analyzeUrl('https://\u0430pple.com/');
    expect(a.host).toBe('xn--pple-43d.com');
    expect(a.hostUnicode).toBe('\u0430pple.com');
    expect(codes('https://\u0430pple.com/')).toEqual(['punycode', 'mixed-script', 'confusable']);
  });

  it('warns Punycode but not mixed-script for a single-script IDN', () => {
    expect(codes('https://b\u00fccher.de/')).toEqual(['punycode']);
    expect(analyzeUrl('https://b\u00fccher.de/').hostUnicode).toBe('b\u00fccher.de');
    expect(codes('https://\u043f\u0440\u0438\u043c\u0435\u0440.com/')).toEqual(['punycode']); // всё кириллица
  });

  it('accepts normal Japanese mixes of Han and kana', () => {
    expect(codes('https://\u4f8b\u3048.jp/')).toEqual(['punycode']);
  });

  it('flags Latin mixed with Greek', () => {
    expect(codes('https://g\u03bfogle.com/')).toEqual(['punycode', 'mixed-script', 'confusable']); // Greek omicron
  });

  it('folds full-width letters to ASCII like the browser, without warnings', () => {
    const a = analyzeUrl('https://\uff45xample.com/');
    expect(a.host).toBe('example.com');
    expect(a.warnings).toEqual([]);
  });

  it('warns about a very long link but does not block it', () => {
    const long = `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`;
    const a = analyzeUrl(long);
    expect(a.blocked).toBe(false);
    expect(codes(long)).toEqual(['too-long']);
    const edge = `https://example.com/${'a'.repeat(MAX_URL_LENGTH - 'https://example.com/'.length)}`;
    expect(edge.length).toBe(MAX_URL_LENGTH);
    expect(codes(edge)).toEqual([]);
  });

  it('stacks warnings: http + credentials + raw ip', () => {
    const a = analyzeUrl('http://u:p@198.51.100.1/');
    expect(a.blocked).toBe(true);
    expect(codes('http://u:p@198.51.100.1/').sort()).toEqual(['credentials', 'http-not-loopback', 'raw-ip']);
  });

  it('gives every warning a plain sentence', () => {
    for (const w of analyzeUrl('http://u:p@xn--pple-43d.com/' + 'x'.repeat(3000)).warnings) {
      expect(w.message).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe('analyzeUrl: registrable domain heuristic', () => {
  it.each([
    ['https://a.b.example.com/', 'example.com'],
    ['https://www.bbc.co.uk/', 'bbc.co.uk'],
    ['https://shop.example.com.au/', 'example.com.au'],
    ['https://someone.github.io/repo', 'someone.github.io'],
    ['https://github.io/', 'github.io'],
    ['https://co.uk/', 'co.uk'],
    ['https://example.com./', 'example.com'],
    ['https://intranet/', 'intranet'],
    ['https://localhost/', 'localhost'],
    ['https://city.kawasaki.jp/', 'kawasaki.jp'], // documented limitation: suffix not in the built-in list
  ])('%s -> %s', (href, expected) => {
    expect(analyzeUrl(href).registrableDomain).toBe(expected);
  });
});

describe('look-alike hosts (Chromium IDN display policy, UTS #39 skeletons)', () => {
  it('flags a mixed-script imitation and a whole-script one, and keeps real words', () => {
    const paypal = analyzeUrl('https://xn--pypal-4ve.com/login');
    expect(paypal.lookalike).toBe(true);
    expect(paypal.warnings.map((w) => w.code)).toContain('confusable');
    expect(paypal.warnings.find((w) => w.code === 'confusable')?.message).toContain('"paypal"');
    // All Cyrillic, no mix at all: only the skeleton catches it.
    const apple = analyzeUrl('https://xn--80ak6aa92e.com/');
    expect(apple.warnings.map((w) => w.code)).toEqual(['punycode', 'confusable']);
    expect(apple.lookalike).toBe(true);
    for (const honest of [
      'https://münchen.de/',
      'https://例え.jp/',
      'https://xn--bcher-kva.example/',
      'https://example.com/',
    ])
      expect(analyzeUrl(honest).lookalike, honest).toBe(false);
  });
});
