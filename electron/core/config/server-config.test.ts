import { describe, expect, it } from 'vitest';
import { isHostError } from '../host-error';
import { parseServerConfig, parseServerConfigText, parseServerEntry } from './server-config';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isHostError(e, 'config')).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected a config error');
}

describe('server config', () => {
  it('accepts the Claude Desktop mcpServers shape for stdio and HTTP', () => {
    const servers = parseServerConfig({
      mcpServers: {
        kimai: { command: 'npx', args: ['-y', 'kimai-mcp'], env: { KIMAI_URL: 'https://kimai.example' }, cwd: '/tmp' },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      },
    });
    expect(servers.kimai).toEqual({
      command: 'npx',
      args: ['-y', 'kimai-mcp'],
      env: { KIMAI_URL: 'https://kimai.example' },
      cwd: '/tmp',
    });
    expect(servers.remote).toEqual({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } });
  });

  it('accepts the VS Code shapes (servers, and mcp.servers in settings.json)', () => {
    expect(Object.keys(parseServerConfig({ servers: { a: { type: 'stdio', command: 'x' } }, inputs: [] }))).toEqual([
      'a',
    ]);
    expect(
      Object.keys(parseServerConfig({ mcp: { servers: { b: { type: 'http', url: 'http://127.0.0.1:1/mcp' } } } })),
    ).toEqual(['b']);
  });

  it('names the server and field of every problem', () => {
    expect(errorOf(() => parseServerEntry('kimai', { command: 42 }))).toBe(
      'server "kimai": field "command" must be a non-empty string',
    );
    expect(errorOf(() => parseServerEntry('kimai', { command: 'x', args: ['a', 3] }))).toBe(
      'server "kimai": field "args[1]" must be a string',
    );
    expect(errorOf(() => parseServerEntry('kimai', { command: 'x', env: { A: 1 } }))).toBe(
      'server "kimai": field "env.A" must be a string',
    );
    expect(errorOf(() => parseServerEntry('web', { url: 'not a url' }))).toContain(
      'server "web": field "url" is not a valid URL',
    );
    expect(errorOf(() => parseServerEntry('web', { url: 'ftp://x' }))).toContain('must be http(s)');
    expect(errorOf(() => parseServerEntry('both', { url: 'http://x', command: 'y' }))).toContain('both set');
    expect(errorOf(() => parseServerEntry('none', {}))).toContain('field "command" is missing');
    expect(errorOf(() => parseServerEntry('odd', { command: 'x', colour: 'red' }))).toBe(
      'server "odd": field "colour" is not allowed for a stdio server',
    );
    expect(errorOf(() => parseServerEntry('old', { type: 'sse', url: 'http://x' }))).toContain('deprecated HTTP+SSE');
  });

  it('ignores keys other hosts write (disabled, autoApprove) instead of failing an import', () => {
    expect(parseServerEntry('a', { command: 'x', disabled: false, autoApprove: [] })).toEqual({ command: 'x' });
  });

  it('rejects bad documents with the source named', () => {
    expect(errorOf(() => parseServerConfigText('{oops', 'servers.json'))).toMatch(/^servers\.json:1:2: not valid JSON/);
    expect(errorOf(() => parseServerConfig({ other: 1 }, 'x.json'))).toBe(
      'x.json: no "mcpServers" (or VS Code "servers") object found',
    );
    expect(errorOf(() => parseServerConfig({ mcpServers: [] }, 'x.json'))).toContain(
      'must be an object of named servers',
    );
    expect(errorOf(() => parseServerConfig({ mcpServers: { 'bad/name': { command: 'x' } } }))).toContain(
      'server name "bad/name" is invalid',
    );
  });
});
