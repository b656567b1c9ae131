// A server that cannot be started or reached says why, the same way in the
// CLI, the Servers view (through the host API) and the gateway's log: the
// cause in the user's terms naming the command or URL (secrets hidden), how
// the process ended, and the server's own last stderr lines, with none of
// the host's internals (how the SDK probed, its class names). Real processes
// and real HTTP servers throughout.
import { execFileSync } from 'node:child_process';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEntry } from '../../electron/core/config/server-config';
import { HostService } from '../../electron/core/service/host-service';
import { Gateway } from '../../electron/gateway/gateway';
import { QuestionGate } from '../../electron/core/prompter/question-gate';
import { runCliIn } from '../support/cli';
import { fixtureCommandLine } from '../fixtures/spawn-fixture';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const tmp = () => mkdtempSync(join(tmpdir(), 'cs-start-failure-'));

/** A server program in a file of its own (the CLI's --stdio takes one command line). */
function script(body: string): string {
  const file = join(tmp(), 'server.mjs');
  writeFileSync(file, body);
  return file;
}

const DIES_IN_CALL = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'servers', 'dies-in-call.ts');

const INTERNALS = /probed in place|StdioClientTransport|server\/discover|disposable sibling|Version negotiation/;

/** `countersign call` on a config entry; the error text without the CLI's prefix. */
async function cliError(entry: ServerEntry, name = 'broken') {
  const dir = tmp();
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: { [name]: entry } }));
  const r = await runCliIn(dir, ['call', '--server', name, '--config', join(dir, 'servers.json'), '--tool', 'x']);
  expect(r.code).toBe(2);
  expect(r.stdout).toEqual([]);
  const text = r.stderr.join('\n');
  expect(text).toMatch(/^countersign: error: /);
  expect(text).not.toMatch(INTERNALS);
  return text.replace(/^countersign: error: /, '');
}

async function listen(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('a stdio server that fails to start', () => {
  it('a typo in the path: Node\'s own "Cannot find module", the exit code and the command', async () => {
    const missing = join(tmp(), 'typo', 'server.js');
    const text = await cliError({ command: process.execPath, args: [missing] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('cannot start "broken": the server exited with code 1 before it answered');
    expect(lines[1]).toBe(`  command: ${process.execPath} ${missing}`);
    expect(text).toContain(`Error: Cannot find module '${missing}'`);
    expect(lines.at(-1)).toMatch(/^ {4}Node\.js v\d+/);
  });

  it('a server that prints to stderr and exits 3: its lines, in order, and the code; secrets in args hidden', async () => {
    const file = script(
      "process.stderr.write('starting up\\n');\n" +
        "process.stderr.write('\\u001b[31mfatal:\\u001b[0m config file /etc/demo.toml is missing\\n');\n" +
        'process.exit(3);\n',
    );
    const text = await cliError({
      command: process.execPath,
      args: [file, '--api-key', 'sk-live-0123456789', '--region=eu', 'TOKEN=abcdef123'],
    });
    expect(text.split('\n')).toEqual([
      'cannot start "broken": the server exited with code 3 before it answered',
      `  command: ${process.execPath} ${file} --api-key •••••• --region=eu TOKEN=••••••`,
      '  its last 2 lines on stderr:',
      '    starting up',
      '    fatal: config file /etc/demo.toml is missing',
    ]);
  });

  it('a server killed by a signal: the signal', async () => {
    const file = script("process.stderr.write('about to be killed\\n');\nprocess.kill(process.pid, 'SIGKILL');\n");
    const text = await cliError({ command: process.execPath, args: [file] });
    expect(text.split('\n')).toEqual([
      'cannot start "broken": the server was killed by signal SIGKILL before it answered',
      `  command: ${process.execPath} ${file}`,
      '  its last line on stderr:',
      '    about to be killed',
    ]);
  });

  it('a command that does not exist', async () => {
    const text = await cliError({ command: '/nonexistent/countersign-test-server', args: [] });
    expect(text.split('\n')).toEqual([
      'cannot start "broken": the command "/nonexistent/countersign-test-server" was not found (ENOENT)',
      '  command: /nonexistent/countersign-test-server',
    ]);
  });
});

describe('an HTTP server that cannot be used: one line naming the URL', () => {
  it('nothing listening', async () => {
    const { url, server } = await listen(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await cliError({ url })).toBe(
      `cannot connect to "broken": nothing is listening at ${url} (connection refused)`,
    );
  });

  it('404', async () => {
    const { url } = await listen((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found'));
    expect(await cliError({ url })).toBe(
      `cannot connect to "broken": ${url} answered HTTP 404 Not Found: no MCP endpoint at this address`,
    );
  });

  it('a web page instead of MCP (text/html)', async () => {
    const { url } = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hi</h1>'));
    expect(await cliError({ url })).toBe(
      `cannot connect to "broken": ${url} answered with text/html, not MCP (JSON or an event stream): ` +
        'is this the MCP endpoint?',
    );
  });

  it('a certificate the host does not trust (a self-signed one, made here with openssl)', async () => {
    const dir = tmp();
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const server = createTlsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    expect(await cliError({ url })).toBe(
      `cannot connect to "broken": the TLS connection to ${url} failed: self-signed certificate ` +
        '(DEPTH_ZERO_SELF_SIGNED_CERT)',
    );
  });
});

describe('a server that dies after it was connected', () => {
  it('the call ends saying how the process ended, with its last stderr lines', async () => {
    const dies = fixtureCommandLine('modern').replace(/"[^"]*modern-server\.ts"/, JSON.stringify(DIES_IN_CALL));
    const r = await runCliIn(tmp(), ['call', '--stdio', dies, '--tool', 'die']);
    expect(r.code).toBe(2);
    expect(r.stderr.join('\n')).toBe(
      'countersign: error: server "dies-in-call.ts" exited with code 3\n' +
        '  its last 2 lines on stderr:\n' +
        '    worker pool lost its database connection\n' +
        '    fatal: giving up',
    );
  });
});

describe('the same words in the Servers view and the gateway log', () => {
  it('the host API carries the CLI text as the server error; the gateway logs it', async () => {
    const file = script(
      "process.stderr.write('listen EADDRINUSE: address already in use :::8080\\n');\nprocess.exit(3);\n",
    );
    const entry: ServerEntry = { command: process.execPath, args: [file] };
    const cli = await cliError(entry);

    const dataDir = tmp();
    const service = await HostService.create({
      dataDir,
      openExternal: async () => undefined,
      firstStartServers: { broken: entry },
      connectOnStart: false,
      watchConfig: false,
    });
    service.log = () => undefined;
    cleanup.push(() => service.close());
    await service.invoke('reconnectServer', { name: 'broken' }).catch(() => undefined);
    const view = (await service.invoke('listServers', {})).find((s) => s.name === 'broken')!;
    expect(view.status).toBe('error');
    expect(view.error).toBe(cli);

    const logged: string[] = [];
    const gateway = await Gateway.open({
      dataDir: tmp(),
      servers: { broken: entry },
      approval: {
        questions: (deps) =>
          new QuestionGate({ ask: () => Promise.reject(new Error('no questions here')) }, deps.observer),
        prompter: {},
        observer: {},
        close: () => undefined,
      },
      log: (line) => logged.push(line),
    });
    cleanup.push(() => gateway.close());
    expect(await gateway.catalog.tools(['broken'])).toEqual([]);
    expect(logged).toEqual([`countersign gateway: left server "broken" out of the tools list: ${cli}`]);
  });
});
