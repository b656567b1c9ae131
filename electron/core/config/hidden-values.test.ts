import { describe, expect, it } from 'vitest';
import { HIDDEN_VALUE } from '../../../shared/config/server-entry';
import { hideSecrets, restoreHiddenSecrets } from './hidden-values';

const stored = {
  url: 'https://mcp.example.com/mcp',
  headers: { Authorization: 'Bearer t0k' },
  oauth: { clientId: 'cs', clientSecret: 's3cret', privateKey: '-----BEGIN PRIVATE KEY-----', scopes: ['read'] },
};

describe('hidden secrets of a server entry', () => {
  it("hides header values and the OAuth client's secret and key, and keeps what is not secret", () => {
    expect(hideSecrets(stored)).toEqual({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: HIDDEN_VALUE },
      oauth: { clientId: 'cs', clientSecret: HIDDEN_VALUE, privateKey: HIDDEN_VALUE, scopes: ['read'] },
    });
    expect(hideSecrets({ command: 'srv', args: ['--x'], env: { TOKEN: 'abc' } })).toEqual({
      command: 'srv',
      args: ['--x'],
      env: { TOKEN: HIDDEN_VALUE },
    });
    expect(hideSecrets({ url: 'https://a.example/mcp' })).toEqual({ url: 'https://a.example/mcp' });
  });

  it('puts each hidden value back from the stored entry, key by key', () => {
    expect(restoreHiddenSecrets('remote', hideSecrets(stored), stored)).toEqual(stored);
    expect(
      restoreHiddenSecrets('remote', { url: stored.url, headers: { Authorization: 'Bearer new' } }, stored),
    ).toEqual({ url: stored.url, headers: { Authorization: 'Bearer new' } });
  });

  it('refuses a hidden value with nothing stored under its key, naming it', () => {
    expect(() =>
      restoreHiddenSecrets('remote', { url: stored.url, headers: { 'X-Key': HIDDEN_VALUE } }, stored),
    ).toThrow('server "remote": the value of header "X-Key" is hidden and nothing is stored for it; type the value');
    expect(() => restoreHiddenSecrets('local', { command: 'x', env: { A: HIDDEN_VALUE } }, stored)).toThrow(
      'variable "A"',
    );
    expect(() =>
      restoreHiddenSecrets('remote', { url: stored.url, oauth: { clientSecret: HIDDEN_VALUE } }, undefined),
    ).toThrow('oauth.clientSecret');
  });
});
