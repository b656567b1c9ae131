// `countersign gateway` in-process (the real-process runs are in test/gateway).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { GATEWAY_USAGE, runGatewayCommand } from './gateway-command';
import type { CliIo } from './io';

function io(env: NodeJS.ProcessEnv = {}, signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { COUNTERSIGN_GATEWAY_AUTOSTART: '0', ...env },
    ...(signal ? { signal } : {}),
  };
  return { cli, out, err };
}

const dir = () => mkdtempSync(join(tmpdir(), 'cs-gwcmd-'));

describe('countersign gateway', () => {
  it('--help goes to stderr (stdout is the MCP channel)', async () => {
    const { cli, out, err } = io();
    expect(await runGatewayCommand(['--help'], cli)).toBe(0);
    expect(out).toEqual([]);
    expect(err.join('\n')).toBe(GATEWAY_USAGE);
  });

  it.each([
    [['--bogus'], /Unknown option/],
    [['--port', '80'], /--port and --new-token need --http/],
    [['--http', '--port', 'eighty'], /--port must be a port number/],
    [['extra'], /Unexpected argument/],
  ])('refuses %j with exit 2 and the usage', async (argv, message) => {
    const { cli, out, err } = io();
    expect(await runGatewayCommand(argv, cli)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(message);
    expect(err.join('\n')).toContain('usage: countersign gateway');
  });

  it('refuses a bad COUNTERSIGN_GATEWAY_PROGRESS_MS', async () => {
    const { cli, err } = io({ COUNTERSIGN_GATEWAY_PROGRESS_MS: 'soon' });
    expect(await runGatewayCommand([], cli)).toBe(2);
    expect(err.join('\n')).toContain('COUNTERSIGN_GATEWAY_PROGRESS_MS must be a positive number');
  });

  it('names the broken servers.json and exits 2', async () => {
    const d = dir();
    writeFileSync(join(d, 'servers.json'), JSON.stringify({ mcpServers: { 'bad name!': { command: 'x' } } }));
    const { cli, err } = io();
    expect(await runGatewayCommand(['--data-dir', d], cli)).toBe(2);
    expect(err.join('\n')).toContain('server name "bad name!" is invalid');
  });

  it('serves MCP on the given transport until the agent hangs up; with no servers it lists nothing and writes nothing', async () => {
    const d = dir();
    const [agentSide, gatewaySide] = InMemoryTransport.createLinkedPair();
    const { cli, out, err } = io();
    const running = runGatewayCommand(['--data-dir', d], cli, { transport: gatewaySide });
    const client = new Client(
      { name: 'in-process', version: '1' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    await client.connect(agentSide);
    expect((await client.listTools()).tools).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect(client.getInstructions()).toContain('named <server>__<name>');
    await client.close();
    expect(await running).toBe(0);
    expect(out).toEqual([]);
    expect(err.join('\n')).toContain(`no servers configured in ${d}`);
    expect(existsSync(join(d, 'servers.json'))).toBe(false);
  });

  it('--http prints where it listens and the new token, and stops on Ctrl-C', async () => {
    const d = dir();
    const controller = new AbortController();
    const { cli, out } = io({}, controller.signal);
    const running = runGatewayCommand(['--data-dir', d, '--http'], cli);
    for (let i = 0; i < 100 && out.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(out[0]).toMatch(/^LISTENING http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(out[1]).toMatch(/^Bearer token \(new; also saved in .+gateway-http\.token\): [A-Za-z0-9_-]{43}$/);
    const res = await fetch(out[0]!.slice('LISTENING '.length), { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    controller.abort();
    expect(await running).toBe(0);
  });
});
