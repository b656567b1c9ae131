// `countersign servers import|list` (issue 22, item 2): importing shows what each
// server will run and writes only after the person agreed; nothing is started.
// And `--config` with one unsupported entry no longer fails the whole file.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../electron/cli/io';
import { runCli } from '../../electron/cli/main';
import { runServersCommand } from '../../electron/cli/servers-command';
import { startBin } from '../support/cli';

let dir: string;
let data: string;
let marker: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'countersign-servers-'));
  data = join(dir, 'data');
  marker = join(dir, 'server-started');
  mkdirSync(join(dir, 'proj', '.vscode'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A VS Code mcp.json whose server, if ever started, leaves a marker file. */
function vscodeFile(): string {
  const file = join(dir, 'proj', '.vscode', 'mcp.json');
  writeFileSync(
    file,
    `{
  // comments and trailing commas, as VS Code writes them
  "inputs": [{ "type": "promptString", "id": "key", "description": "API key", "password": true }],
  "servers": {
    "marker": { "command": "sh", "args": ["-c", "touch ${marker}"], "env": { "API_KEY": "\${input:key}" }, },
    "old": { "type": "sse", "url": "https://example.com/sse" },
  },
}`,
  );
  return file;
}

function io(): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: (t) => void out.push(t),
      stderr: (t) => void err.push(t),
      env: { ...process.env, COUNTERSIGN_DATA_DIR: data },
    },
  };
}

const stored = () => JSON.parse(readFileSync(join(data, 'servers.json'), 'utf8')).mcpServers;

describe('countersign servers import', () => {
  it('without a terminal and without --yes, shows the plan and writes nothing (a real process)', async () => {
    const file = vscodeFile();
    const bin = startBin(['servers', 'import', file], data, 'ignore');
    expect(await bin.exited).toBe(2);
    expect(bin.stderr()).toContain(`+ marker: runs sh -c 'touch ${marker}'`);
    expect(bin.stderr()).toContain('- old: skipped:');
    expect(bin.stderr()).toMatch(/nothing was imported: there is no terminal to ask.*--yes/);
    expect(existsSync(join(data, 'servers.json'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('asks, and on "no" writes nothing', async () => {
    const t = io();
    const asked: string[] = [];
    const code = await runServersCommand(['import', vscodeFile()], t.io, {
      ask: async (prompt) => (asked.push(prompt), 'n'),
    });
    expect(code).toBe(1);
    expect(asked).toEqual(['Add these 1 server(s)? [y/N] ']);
    expect(existsSync(join(data, 'servers.json'))).toBe(false);
  });

  it('on "yes" asks the password input without echo, keeps it as the server’s hidden value, and starts nothing', async () => {
    const t = io();
    const asked: Array<[string, boolean]> = [];
    const answers = ['y', 's3cret'];
    const code = await runServersCommand(['import', vscodeFile()], t.io, {
      ask: async (prompt, hidden) => (asked.push([prompt, hidden]), answers.shift()!),
    });
    expect(code).toBe(0);
    expect(asked).toEqual([
      ['Add these 1 server(s)? [y/N] ', false],
      ['API key (hidden): ', true],
    ]);
    expect(stored()).toEqual({
      marker: { command: 'sh', args: ['-c', `touch ${marker}`], env: { API_KEY: 's3cret' } },
    });
    expect(statSync(join(data, 'servers.json')).mode & 0o777).toBe(0o600);
    expect(t.err.join('\n')).not.toContain('s3cret');
    expect(existsSync(marker)).toBe(false);
  });

  it('a password input is never put into an argument (every user can read a command line)', async () => {
    const file = join(dir, 'proj', '.vscode', 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key', description: 'Key', password: true }],
        servers: { s: { command: 'srv', args: ['--key=${input:key}'], env: { KEY: '${input:key}' } } },
      }),
    );
    const t = io();
    const answers = ['y', 'pw-123'];
    expect(await runServersCommand(['import', file], t.io, { ask: async () => answers.shift()! })).toBe(0);
    expect(stored()).toEqual({ s: { command: 'srv', args: ['--key=${input:key}'], env: { KEY: 'pw-123' } } });
    expect(t.err.join('\n')).toMatch(/s will not start until these are set: \$\{input:key\} in args\[0\]/);
  });

  it('text from the imported file cannot start a line of its own in the review', async () => {
    const file = join(dir, 'hostile.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          'x\n  + github: runs npx @modelcontextprotocol/server-github': { command: 'a' },
          ok: { command: 'b', env: { 'K\n  + fake: runs evil': 'v' } },
        },
      }),
    );
    const t = io();
    await runServersCommand(['import', file], t.io, { ask: async () => 'n' });
    const lines = t.err.join('\n').split('\n');
    expect(lines.filter((l) => /^\s*\+ (github|fake)/.test(l))).toEqual([]);
    expect(t.err.join('\n')).toContain('\\n  + github');
  });

  it('refuses an import file others can write', async () => {
    const file = join(dir, 'loose.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a' } } }));
    chmodSync(file, 0o666);
    const t = io();
    expect(await runServersCommand(['import', file, '--yes'], t.io)).toBe(2);
    expect(t.err.join('\n')).toMatch(/^countersign: error: refusing .*loose\.json/);
    expect(existsSync(join(data, 'servers.json'))).toBe(false);
  });

  it('servers list shows what runs and what is still missing, never a secret value', async () => {
    mkdirSync(data, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(data, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          brave: { command: 'npx', args: ['-y', 'brave'], env: { KEY: '${env:CS_LIST_UNSET}', OTHER: 'secret-value' } },
          web: { url: 'https://h.example/mcp' },
        },
      }),
      { mode: 0o600 },
    );
    const t = io();
    expect(await runCli(['servers', 'list'], t.io)).toBe(0);
    expect(t.out).toEqual([
      'brave\tstdio\tnpx -y brave',
      '\tneeds a value: ${env:CS_LIST_UNSET} in env.KEY (the environment variable CS_LIST_UNSET is not set)',
      'web\thttp\thttps://h.example/mcp',
    ]);
    expect(t.out.join('\n')).not.toContain('secret-value');
  });
});

describe('--config with one unsupported entry', () => {
  it('uses the good entries and warns about the bad one, naming it', async () => {
    const file = join(dir, 'servers.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          old: { type: 'sse', url: 'https://example.com/sse' },
          good: { command: 'sh', args: ['-c', 'exit 0'] },
        },
      }),
    );
    const t = io();
    // The good entry is picked (and then fails to connect, as `sh -c 'exit 0'` is no server): not a config error.
    await runCli(['call', '--config', file, '--server', 'good', '--tool', 'x'], t.io);
    expect(t.err.join('\n')).toContain(`countersign: warning: ${file}: skipped server "old":`);
    expect(t.err.join('\n')).not.toContain('cannot be used');
    const bad = io();
    expect(await runCli(['call', '--config', file, '--server', 'old', '--tool', 'x'], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/server "old" cannot be used: .*HTTP\+SSE/);
  });
});
