import { describe, expect, it } from 'vitest';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { copyText, splitHost, unicodeDomain, urlParts } from './url-parts';

const text = (href: string) => urlParts(analyzeUrl(href)).map((p) => `${p.kind}:${p.text}`);

describe('urlParts', () => {
  it('splits scheme, host (registrable domain apart), path and query, and rejoins to the full link', () => {
    const href = 'https://accounts.example.co.uk:8443/oauth/authorize?client_id=1#frag';
    expect(text(href)).toEqual([
      'scheme:https://',
      'subdomain:accounts.',
      'domain:example.co.uk',
      'port::8443',
      'path:/oauth/authorize',
      'query:?client_id=1',
      'fragment:#frag',
    ]);
    expect(
      urlParts(analyzeUrl(href))
        .map((p) => p.text)
        .join(''),
    ).toBe(new URL(href).href);
  });

  it('shows embedded credentials as their own (suspicious) part', () => {
    expect(text('https://paypal.com@evil.example/login')).toContain('userinfo:paypal.com@');
    expect(text('https://paypal.com@evil.example/login')).toContain('domain:evil.example');
  });

  it('shows an internationalised host in its xn-- form in the full link', () => {
    const parts = text('https://bücher.example/');
    expect(parts).toContain('domain:xn--bcher-kva.example');
  });

  it('keeps opaque and unparseable links whole', () => {
    expect(text('javascript:alert(1)')).toEqual(['scheme:javascript:', 'raw:alert(1)']);
    expect(text('not a url')).toEqual(['raw:not a url']);
  });

  it('copies the parsed link, or the raw text when it does not parse', () => {
    expect(copyText(analyzeUrl('HTTPS://Example.COM/a b'))).toBe('https://example.com/a%20b');
    expect(copyText(analyzeUrl('::nope'))).toBe('::nope');
  });
});

describe('splitHost', () => {
  it('finds the registrable domain by suffix or by label count', () => {
    expect(splitHost('a.b.example.com', 'example.com')).toEqual({ sub: 'a.b.', domain: 'example.com' });
    expect(splitHost('example.com', 'example.com')).toEqual({ sub: '', domain: 'example.com' });
    expect(splitHost('www.bücher.example', 'xn--bcher-kva.example')).toEqual({ sub: 'www.', domain: 'bücher.example' });
    expect(splitHost('', '')).toEqual({ sub: '', domain: '' });
  });

  it('derives the Unicode domain when the analysis lacks it', () => {
    const a = analyzeUrl('https://www.bücher.example/');
    expect(unicodeDomain({ ...a, registrableDomainUnicode: undefined })).toBe('bücher.example');
  });
});
