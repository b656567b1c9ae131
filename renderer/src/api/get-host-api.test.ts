import { describe, expect, it } from 'vitest';
import { createInMemoryHost } from './in-memory-host';
import { getHostApi, isHostApi } from './get-host-api';

describe('getHostApi', () => {
  it('uses the Electron preload object when present', () => {
    const { api } = createInMemoryHost();
    expect(getHostApi({ countersign: api })).toBe(api);
  });

  it('refuses an incomplete preload object', () => {
    expect(() => getHostApi({ countersign: { on() {} } })).toThrow(/not a complete HostApi/);
    expect(isHostApi(null)).toBe(false);
  });

  it('falls back to the web shell client on http(s) origins, with the token from the address', () => {
    const api = getHostApi({
      location: { protocol: 'http:', host: '127.0.0.1:9', hash: '#token=abcdefghijklmnopqrstuvwxyz0123' },
    });
    expect(isHostApi(api)).toBe(true);
    (api as unknown as { close(): void }).close();
  });

  it('refuses a web shell page without a token, saying where to get one', () => {
    expect(() => getHostApi({ location: { protocol: 'http:', host: '127.0.0.1:7000', hash: '' } })).toThrow(
      /no access token/,
    );
  });

  it('gives up clearly when there is neither', () => {
    expect(() => getHostApi({ location: { protocol: 'file:', host: '' } })).toThrow(/no host/);
  });
});

describe('the token leaves the address once read', () => {
  const token = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
  function fakeEnv(hash: string, search = '') {
    const store = new Map<string, string>();
    const replaced: string[] = [];
    return {
      replaced,
      store,
      env: {
        location: { protocol: 'http:', host: '127.0.0.1:9', pathname: '/', hash, search },
        history: { replaceState: (_d: unknown, _u: string, url?: string) => void replaced.push(url ?? '') },
        sessionStorage: {
          getItem: (k: string) => store.get(k) ?? null,
          setItem: (k: string, v: string) => store.set(k, v),
        },
      },
    };
  }

  it('replaces the address with one without the token and keeps it for a reload of this tab', () => {
    const first = fakeEnv(`#token=${token}`, '?view=history&token=x');
    const api = getHostApi(first.env);
    expect(first.replaced).toEqual(['/?view=history']);
    expect(first.store.get('countersign.token')).toBe(token);
    (api as unknown as { close(): void }).close();
    // The reload: no token in the address any more, the tab's storage still has it.
    const reload = fakeEnv('');
    reload.store.set('countersign.token', token);
    const again = getHostApi(reload.env);
    expect(isHostApi(again)).toBe(true);
    expect(reload.replaced).toEqual([]);
    (again as unknown as { close(): void }).close();
  });

  it('ignores a malformed kept token', () => {
    const reload = fakeEnv('');
    reload.store.set('countersign.token', 'short<script>');
    expect(() => getHostApi(reload.env)).toThrow(/no access token/);
  });
});
