import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, CSP_DIRECTIVES } from './csp';

describe('renderer Content-Security-Policy', () => {
  it('starts from nothing and allows only the app itself', () => {
    expect(CSP_DIRECTIVES).toEqual({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'none'"],
      'media-src': ["'none'"],
      'object-src': ["'none'"],
      'frame-src': ["'none'"],
      'worker-src': ["'none'"],
      'manifest-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
    });
  });

  it('never allows eval, inline code, remote hosts or wildcards', () => {
    for (const bad of [
      "'unsafe-eval'",
      "'unsafe-inline'",
      "'wasm-unsafe-eval'",
      "'unsafe-hashes'",
      '*',
      'http:',
      'https:',
      'blob:',
      'file:',
    ]) {
      expect(CONTENT_SECURITY_POLICY.split(/[;\s]+/)).not.toContain(bad);
    }
  });

  it('is one header value with every directive once', () => {
    const names = CONTENT_SECURITY_POLICY.split('; ').map((d) => d.split(' ')[0]);
    expect(names).toEqual(Object.keys(CSP_DIRECTIVES));
    expect(CONTENT_SECURITY_POLICY.startsWith("default-src 'none'; script-src 'self'")).toBe(true);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/[\n\r]/);
  });
});
