import { describe, expect, it } from 'vitest';
import { appContentSecurityPolicy, declaredCsp } from './app-csp';

const parse = (policy: string) =>
  new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as const));

describe('an app document’s policy', () => {
  it('grants nothing but inline code when the resource declares nothing', () => {
    const d = parse(appContentSecurityPolicy(declaredCsp(undefined), 'http://127.0.0.1:4321'));
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'"]);
    for (const name of ['connect-src', 'frame-src', 'base-uri', 'object-src', 'worker-src', 'form-action'])
      expect(d.get(name), name).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(['http://127.0.0.1:4321']);
    // An opaque origin by the document's own policy, even in a frame that forgot its sandbox attribute.
    expect(d.get('sandbox')).toEqual(['allow-scripts']);
  });

  it('grants exactly the declared origins, each where the spec puts it', () => {
    const csp = declaredCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://example.com'],
    });
    const d = parse(appContentSecurityPolicy(csp, 'http://127.0.0.1:1'));
    expect(d.get('connect-src')).toEqual(['https://api.example.com', 'wss://live.example.com']);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'", 'https://*.cdn.example.com']);
    expect(d.get('img-src')).toEqual(['data:', 'blob:', 'https://*.cdn.example.com']);
    expect(d.get('frame-src')).toEqual(['https://www.youtube.com']);
    expect(d.get('base-uri')).toEqual(['https://example.com']);
  });

  it('drops every declared entry that is not a plain origin, so server text cannot widen the policy', () => {
    const csp = declaredCsp({
      connectDomains: [
        "https://api.example.com; script-src 'unsafe-eval'",
        '*',
        'https:',
        "'self'",
        'https://a.example.com/path',
        'javascript:alert(1)',
        'https://a.example.com ',
        42,
        'https://ok.example.com:8443',
      ],
      resourceDomains: 'https://not-a-list.example.com',
    });
    expect(csp.connectDomains).toEqual(['https://ok.example.com:8443']);
    expect(csp.resourceDomains).toEqual([]);
    const policy = appContentSecurityPolicy(csp, 'http://127.0.0.1:1');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
  });

  it('drops origins on this machine or its local network: the other servers are reached only through the gate', () => {
    const local = [
      'http://127.0.0.1:8931',
      'http://127.1.2.3',
      'http://localhost:3000',
      'https://app.localhost',
      'http://10.0.0.5',
      'http://172.20.1.1:8080',
      'http://192.168.1.10',
      'http://169.254.169.254',
      'http://100.64.0.1',
      'http://0.0.0.0:8000',
      'http://*.0.0.1',
      'http://*.168.1.10',
      'http://router',
      'https://printer.local',
      'https://git.corp.internal',
      'http://nas.home.arpa',
      'http://1.2.3',
      'http://999.1.1.1',
    ];
    const kept = [
      'https://api.example.com',
      'https://203.0.113.7',
      'https://*.example.org',
      'https://localhost.example.com',
    ];
    const csp = declaredCsp({ connectDomains: [...local, ...kept], frameDomains: local, resourceDomains: local });
    expect(csp.connectDomains).toEqual(kept);
    expect(csp.frameDomains).toEqual([]);
    expect(csp.resourceDomains).toEqual([]);
  });

  it('keeps at most 32 origins per list', () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example.com`);
    expect(declaredCsp({ connectDomains: many }).connectDomains).toHaveLength(32);
  });
});
