// The policy's properties, not a copy of it: what must hold for every
// delivery (Electron header, web shell header, build-time <meta>), and that
// the three are one policy that differs only in what the transport needs.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, DESKTOP_APP_FRAMES, LOOPBACK_FRAMES } from '../../shared/csp';
import { RENDERER_CSP } from '../../vite.config';
import { securityHeaders } from '../web/static-files';
import { CONTENT_SECURITY_POLICY } from './csp';

const parse = (policy: string) =>
  new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as const));

const deliveries = {
  electron: CONTENT_SECURITY_POLICY,
  web: securityHeaders('http://127.0.0.1:4321')['Content-Security-Policy']!,
  meta: RENDERER_CSP,
};

describe('renderer Content-Security-Policy', () => {
  it('starts from nothing: default-src, object-src, base-uri and form-action are none everywhere', () => {
    for (const [where, policy] of Object.entries(deliveries)) {
      const d = parse(policy);
      for (const name of ['default-src', 'object-src', 'base-uri', 'form-action', 'worker-src'])
        expect(d.get(name), `${where} ${name}`).toEqual(["'none'"]);
      expect(d.get('script-src'), `${where} script-src`).toEqual(["'self'"]);
    }
  });

  it('never allows eval, inline code, remote hosts or wildcards, in any delivery', () => {
    const bad = ["'unsafe-eval'", "'unsafe-inline'", "'wasm-unsafe-eval'", "'unsafe-hashes'", '*', 'http:', 'https:'];
    for (const [where, policy] of Object.entries(deliveries)) {
      // The <meta> policy's one wildcard: frame-src any loopback port (narrowed by the header it goes with).
      for (const source of policy.replace(`frame-src ${LOOPBACK_FRAMES} `, 'frame-src ').split(/[;\s]+/)) {
        expect(bad, `${where}: ${source}`).not.toContain(source);
        expect(source, where).not.toMatch(/^(blob|file|https?):|\*/);
      }
    }
  });

  it('frames only its own MCP App origin: app://mcp-apps in Electron, the app port in the web shell, both in <meta>', () => {
    expect(parse(deliveries.electron).get('frame-src')).toEqual(['app://mcp-apps']);
    expect(parse(deliveries.web).get('frame-src')).toEqual(["'none'"]);
    const withApps = securityHeaders('http://127.0.0.1:4321', 'http://127.0.0.1:4322')['Content-Security-Policy']!;
    expect(parse(withApps).get('frame-src')).toEqual(['http://127.0.0.1:4322']);
    expect(parse(deliveries.meta).get('frame-src')).toEqual([LOOPBACK_FRAMES, DESKTOP_APP_FRAMES]);
  });

  it('Electron allows no network at all, and only it and the web shell forbid framing', () => {
    expect(parse(deliveries.electron).get('connect-src')).toEqual(["'none'"]);
    expect(parse(deliveries.web).get('connect-src')).toEqual(['ws://127.0.0.1:4321']);
    expect(parse(deliveries.meta).get('connect-src')).toEqual(["'self'"]);
    expect(parse(deliveries.electron).get('frame-ancestors')).toEqual(["'none'"]);
    expect(parse(deliveries.web).get('frame-ancestors')).toEqual(["'none'"]);
    expect(parse(deliveries.meta).has('frame-ancestors')).toBe(false); // a <meta> policy cannot carry it
  });

  it('the three deliveries are one policy: equal apart from connect-src, frame-src and frame-ancestors', () => {
    const without = (policy: string) =>
      [...parse(policy)].filter(([name]) => !['connect-src', 'frame-ancestors', 'frame-src'].includes(name));
    expect(without(deliveries.web)).toEqual(without(deliveries.electron));
    expect(without(deliveries.meta)).toEqual(without(deliveries.electron));
    expect(deliveries.electron).toBe(contentSecurityPolicy({ frameSrc: ['app://mcp-apps'] }));
  });

  it('is one header value with every directive once', () => {
    const names = CONTENT_SECURITY_POLICY.split('; ').map((d) => d.split(' ')[0]);
    expect(new Set(names).size).toBe(names.length);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/[\n\r]/);
  });
});
