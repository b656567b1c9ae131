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
