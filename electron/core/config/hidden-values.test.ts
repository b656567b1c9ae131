import { describe, expect, it } from 'vitest';
import { HIDDEN_VALUE } from '../../../shared/config/server-entry';
import { hideArgs, hideSecrets, restoreHiddenSecrets } from './hidden-values';

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

  const postgres = {
    command: 'npx',
    args: [
      '-y',
      '@modelcontextprotocol/server-postgres',
      'postgres://app:hunter2@db.example:5432/shop?sslpassword=k3y&sslmode=require',
      '--password=pa55',
      '--api-key',
      'sk-live-1',
      '--import',
      'file:///opt/tsx/loader.mjs',
    ],
  };

  it("hides passwords in a stdio server's arguments: URL userinfo, secret query values, --password=… and the word after --api-key", () => {
    const shown = hideSecrets(postgres);
    expect(shown).toEqual({
      command: 'npx',
      args: [
        '-y',
        '@modelcontextprotocol/server-postgres',
        `postgres://app:${HIDDEN_VALUE}@db.example:5432/shop?sslpassword=${HIDDEN_VALUE}&sslmode=require`,
        `--password=${HIDDEN_VALUE}`,
        '--api-key',
        HIDDEN_VALUE,
        '--import',
        'file:///opt/tsx/loader.mjs',
      ],
    });
    expect(JSON.stringify(shown)).not.toMatch(/hunter2|k3y|pa55|sk-live-1/);
    expect(hideArgs(['--verbose', 'https://example.com/path', 'plain'])).toEqual([
      '--verbose',
      'https://example.com/path',
      'plain',
    ]);
  });

  it('keeps the stored arguments when the form is saved with the hidden text, also after arguments moved', () => {
    expect(restoreHiddenSecrets('db', hideSecrets(postgres), postgres)).toEqual(postgres);
    const shown = hideArgs(postgres.args);
    const moved = { command: 'npx', args: ['--read-only', ...shown] };
    expect(restoreHiddenSecrets('db', moved, postgres)).toEqual({
      command: 'npx',
      args: ['--read-only', ...postgres.args],
    });
    // A typed new password is saved as typed.
    const typed = {
      command: 'npx',
      args: shown.map((a) => (a === `--password=${HIDDEN_VALUE}` ? '--password=new' : a)),
    };
    expect((restoreHiddenSecrets('db', typed, postgres) as { args: string[] }).args).toContain('--password=new');
  });

  it('refuses a hidden argument that matches nothing stored (edited around its hidden part), naming it', () => {
    const shown = hideArgs(postgres.args);
    const edited = { command: 'npx', args: shown.map((a) => a.replace('db.example', 'other.example')) };
    expect(() => restoreHiddenSecrets('db', edited, postgres)).toThrow(
      'server "db": the value of argument 3 is hidden and nothing is stored for it; type the value',
    );
  });
});
