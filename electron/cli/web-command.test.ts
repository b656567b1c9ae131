// `countersign web`, in-process (injected io and browser opener) and as a
// real process stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRendererDir } from '../../test/web/helpers';
import type { CliIo } from './io';
import { WEB_USAGE, defaultRendererDir, runWebCommand } from './web-command';
import { waitFor } from '../../test/support/wait-for';

function captureIo(signal?: AbortSignal): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { ...process.env },
    ...(signal ? { signal } : {}),
  };
}

const URL_LINE = /^Countersign is running at (http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43}))$/;

describe('countersign web', () => {
  let renderer: ReturnType<typeof makeRendererDir>;
  let dataDir: string;
  beforeAll(() => {
    renderer = makeRendererDir();
    dataDir = mkdtempSync(join(tmpdir(), 'countersign-webcmd-'));
  });
  afterAll(() => {
    renderer.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URL, opens it in the browser, serves the app and the socket, writes the demo servers, and stops on the signal', async () => {
    const stop = new AbortController();
    const io = captureIo(stop.signal);
    const opened: string[] = [];
    const running = runWebCommand(['--port', '0', '--data-dir', dataDir, '--renderer', renderer.rendererDir], io, {
      openBrowser: async (url) => void opened.push(url),
      openExternal: async () => undefined,
    });
    const line = await waitFor(() => io.out.find((l) => URL_LINE.test(l)), 'the URL line');
    const [, url, port] = URL_LINE.exec(line)!;
    // The browser is given a private launcher page that forwards to the URL, never the URL itself.
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toContain(URL_LINE.exec(line)![3]);
    expect(readFileSync(opened[0]!, 'utf8')).toContain(`url=${url}`);
    expect((await fetch(url!)).status).toBe(200);
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/api`,
      ['countersign.v1', `countersign.token.${URL_LINE.exec(line)![3]}`],
      { origin: `http://127.0.0.1:${port}` },
    );
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = await new Promise<{ id: number; result: { total: number } }>((resolve) => {
      ws.on('message', (d) => resolve(JSON.parse(d.toString())));
      ws.send(JSON.stringify({ id: 1, method: 'queryHistory', params: {} }));
    });
    expect(reply).toMatchObject({ id: 1, result: { total: expect.any(Number) } });
    ws.close();
    expect(existsSync(join(dataDir, 'history'))).toBe(true);
    const servers = JSON.parse(readFileSync(join(dataDir, 'servers.json'), 'utf8')).mcpServers;
    expect(Object.keys(servers)).toEqual(['Demo Kimai-style', 'Demo legacy']);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(url!)).rejects.toThrow();
  });

  it('does not open the browser with --no-open, and has no switch to run without history', async () => {
    const stop = new AbortController();
    const io = captureIo(stop.signal);
    const opened: string[] = [];
    const bare = mkdtempSync(join(tmpdir(), 'countersign-webcmd-'));
    try {
      const running = runWebCommand(['--no-open', '--data-dir', bare, '--renderer', renderer.rendererDir], io, {
        openBrowser: async (u) => void opened.push(u),
      });
      await waitFor(() => io.out.find((l) => URL_LINE.test(l)), 'the URL line');
      stop.abort();
      expect(await running).toBe(0);
      expect(opened).toEqual([]);
      expect(existsSync(join(bare, 'history'))).toBe(true);
      const refused = captureIo();
      expect(await runWebCommand(['--no-history', '--renderer', renderer.rendererDir], refused)).toBe(2);
      expect(refused.err.join('\n')).toMatch(/no-history/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('explains how to build the renderer when it is missing', async () => {
    const io = captureIo();
    expect(await runWebCommand(['--renderer', join(renderer.root, 'nothing-here')], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(
      /renderer is not built: .*nothing-here.*index\.html is missing\. Build it with "npx vite build"/,
    );
  });

  it('refuses bad flags and prints usage with --help', async () => {
    const io = captureIo();
    expect(await runWebCommand(['--port', '70000'], io)).toBe(2);
    expect(io.err[0]).toMatch(/--port must be a port number/);
    expect(await runWebCommand(['--bogus'], io)).toBe(2);
    expect(await runWebCommand(['--help'], io)).toBe(0);
    expect(io.out).toEqual([WEB_USAGE]);
  });

  it('finds dist/renderer in the repository by default (or names where it should be)', () => {
    expect(defaultRendererDir()).toMatch(/dist[\\/]renderer$/);
  });

  it('runs as a real process and exits by itself on SIGTERM (nothing keeps it alive)', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const command = pathToFileURL(fileURLToPath(new URL('./web-command.ts', import.meta.url))).href;
    const io = pathToFileURL(fileURLToPath(new URL('./io.ts', import.meta.url))).href;
    const script = `import { runWebCommand } from ${JSON.stringify(command)}; import { processIo } from ${JSON.stringify(io)};
const c = new AbortController(); process.once('SIGTERM', () => c.abort());
process.exitCode = await runWebCommand(process.argv.slice(1), processIo(c.signal));`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        tsx,
        '--input-type=module',
        '-e',
        script,
        '--',
        '--no-open',
        '--data-dir',
        dataDir,
        '--renderer',
        renderer.rendererDir,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (l) => {
        const m = URL_LINE.exec(l);
        if (m) resolve(m[1]!);
      });
      setTimeout(() => reject(new Error(`no URL line; stderr: ${stderr}`)), 20_000);
    });
    expect((await fetch(url)).status).toBe(200);
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code, stderr).toBe(0);
    expect(existsSync(join(dataDir, 'servers.json'))).toBe(true);
  });
});
