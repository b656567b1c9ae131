// Other agents' config files read into server entries (issue 22, item 2): VS
// Code's JSONC was "not valid JSON", Claude Code, Codex and Goose files could
// not be read at all, and one bad entry failed the whole file.
import { describe, expect, it } from 'vitest';
import { readForeignConfig, workspaceOf } from './foreign-config';
import { importServers } from '../service/import-servers';

const VSCODE_MCP_JSON = `// .vscode/mcp.json, as VS Code writes it
{
  "inputs": [
    { "type": "promptString", "id": "brave-key", "description": "Brave API key", "password": true },
  ],
  "servers": {
    /* a block comment */
    "brave": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-brave-search", "\${workspaceFolder}/data"],
      "env": { "BRAVE_API_KEY": "\${input:brave-key}", "HOME_DIR": "\${userHome}" },
      "envFile": "\${workspaceFolder}/.env",
    },
    "legacy": { "type": "sse", "url": "https://example.com/sse" },
  },
}`;

describe('readForeignConfig', () => {
  it("reads VS Code's mcp.json as JSONC, with its inputs, and fills in the workspace folder", () => {
    const read = readForeignConfig(VSCODE_MCP_JSON, '/home/u/proj/.vscode/mcp.json');
    expect(read.format).toBe('vscode');
    expect(read.inputs).toEqual([{ id: 'brave-key', description: 'Brave API key', password: true }]);
    expect(read.servers.brave).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-brave-search', '/home/u/proj/data'],
      env: { BRAVE_API_KEY: '${input:brave-key}', HOME_DIR: '${userHome}' },
      envFile: '/home/u/proj/.env',
    });
  });

  it('reads VS Code settings.json (mcp.servers) and Claude Desktop / Cursor mcpServers', () => {
    const settings = readForeignConfig('{ "editor.fontSize": 13, "mcp": { "servers": { "a": { "command": "x" } } } }');
    expect(settings).toMatchObject({ format: 'vscode', servers: { a: { command: 'x' } } });
    const desktop = readForeignConfig('{ "mcpServers": { "b": { "command": "y", "args": ["1"] } } }');
    expect(desktop).toMatchObject({ format: 'mcpServers', servers: { b: { command: 'y', args: ['1'] } } });
  });

  it("reads Claude Code's ~/.claude.json: user servers and each project's, variables kept as written", () => {
    const read = readForeignConfig(
      JSON.stringify({
        numStartups: 4,
        mcpServers: { user: { type: 'stdio', command: 'u', env: { KEY: '${API_KEY:-none}' } } },
        projects: {
          '/home/u/app': { mcpServers: { proj: { type: 'http', url: 'https://h.example/mcp' } } },
          '/home/u/other': { mcpServers: { user: { command: 'shadow' } } },
        },
      }),
    );
    expect(read.format).toBe('claude-code');
    expect(read.servers).toEqual({
      user: { type: 'stdio', command: 'u', env: { KEY: '${API_KEY:-none}' } },
      proj: { type: 'http', url: 'https://h.example/mcp' },
    });
    expect(read.skipped).toEqual([{ name: 'user', reason: 'also defined for project /home/u/other; the first kept' }]);
  });

  it("reads Codex's config.toml: env pass-through, bearer tokens from the environment, disabled entries skipped", () => {
    const read = readForeignConfig(
      `model = "o4"
[mcp_servers.docs]
command = "node"
args = ["docs.js"]
env = { LOG = "1" }
env_vars = ["GITHUB_TOKEN"]

[mcp_servers.api]
url = "https://api.example.com/mcp"
bearer_token_env_var = "API_TOKEN"
env_http_headers = { "X-Team" = "TEAM_ID" }

[mcp_servers.off]
command = "x"
enabled = false
`,
      '/home/u/.codex/config.toml',
    );
    expect(read.format).toBe('codex');
    expect(read.servers).toEqual({
      docs: { command: 'node', args: ['docs.js'], env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}', LOG: '1' } },
      api: {
        url: 'https://api.example.com/mcp',
        headers: { 'X-Team': '${env:TEAM_ID}', Authorization: 'Bearer ${env:API_TOKEN}' },
      },
    });
    expect(read.skipped).toEqual([{ name: 'off', reason: 'is disabled in the imported file (enabled = false)' }]);
    // Told by its text too, without a file name.
    expect(readForeignConfig('[mcp_servers.a]\ncommand = "x"\n').format).toBe('codex');
  });

  it("reads Goose's config.yaml: stdio and streamable HTTP extensions; built-ins and SSE skipped with why", () => {
    const read = readForeignConfig(
      `extensions:
  developer: { type: builtin, enabled: true }
  fetch:
    type: stdio
    cmd: uvx
    args: [mcp-server-fetch]
    envs: { A: "1" }
    env_keys: [FETCH_KEY]
    enabled: true
  web: { type: streamable_http, uri: "https://goose.example.com/mcp", enabled: true }
  old: { type: sse, uri: "https://goose.example.com/sse" }
  off: { type: stdio, cmd: x, enabled: false }
`,
      'config.yaml',
    );
    expect(read.format).toBe('goose');
    expect(read.servers).toEqual({
      fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: { FETCH_KEY: '${env:FETCH_KEY}', A: '1' } },
      web: { url: 'https://goose.example.com/mcp' },
    });
    expect(read.skipped.map((s) => s.name)).toEqual(['developer', 'old', 'off']);
    expect(read.skipped[0]!.reason).toMatch(/type "builtin", not an MCP server/);
  });

  it('names the line and column of a syntax error, in each format', () => {
    expect(() =>
      readForeignConfig('{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}', 'mcp.json'),
    ).toThrow(/^mcp\.json:4:5: not valid JSON/);
    expect(() => readForeignConfig('[mcp_servers.a\ncommand = 1', 'c.toml')).toThrow(/^c\.toml: not valid TOML/);
    expect(() => readForeignConfig('extensions: [a, b', 'g.yaml')).toThrow(/^g\.yaml: not valid YAML/);
    expect(() => readForeignConfig('{ "other": 1 }')).toThrow(/no "mcpServers".*Codex.*Goose/);
  });

  it('knows a project file by its folder', () => {
    expect(workspaceOf('/home/u/p/.vscode/mcp.json')).toBe('/home/u/p');
    expect(workspaceOf('C:\\work\\p\\.cursor\\mcp.json')).toBe('C:\\work\\p');
    expect(workspaceOf('/home/u/.claude.json')).toBeUndefined();
  });
});

describe('importServers', () => {
  it('keeps the good entries, skips the bad one with its reason, and lists the inputs the entries use', () => {
    const outcome = importServers(VSCODE_MCP_JSON, new Set(), '/p/.vscode/mcp.json');
    expect(Object.keys(outcome.entries)).toEqual(['brave']);
    expect(outcome.skipped).toEqual([{ name: 'legacy', reason: expect.stringMatching(/HTTP\+SSE/) }]);
    expect(outcome.inputs).toEqual([{ id: 'brave-key', description: 'Brave API key', password: true }]);
  });
});
