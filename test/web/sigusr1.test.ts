// SIGUSR1 does not open an inspector in the web shell (issue 9, item 5): on
// plain Node the signal starts one on 127.0.0.1:9229, open to every local
// user, and a heap snapshot holds the token. The real `countersign web` gets
// the signal on the documented Node (this one) and on Node 22 where the
// conformance tools installed it; nothing may listen on the inspector port
// afterwards, no new TCP listener may appear, and the process keeps serving.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeRendererDir } from './helpers';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const node22 = join(repo, '.cache', 'conformance', 'node_modules', 'node', 'bin', 'node');
const URL_LINE = /^Countersign is running at http:\/\/127\.0\.0\.1:(\d+)\//;

/** TCP ports `pid` listens on (Linux: its socket inodes matched against /proc/net/tcp{,6}). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A: LISTEN
      if (inodes.has(cols[9]!)) ports.push(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports.sort((a, b) => a - b);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
  });
}

const nodes: Array<[string, string]> = [['this Node', process.execPath]];
if (existsSync(node22)) nodes.push(['Node 22', node22]);

describe.skipIf(process.platform !== 'linux')('SIGUSR1 and the inspector', () => {
  let root: string;
  let renderer: ReturnType<typeof makeRendererDir>;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'countersign-usr1-'));
    renderer = makeRendererDir();
  });
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(() => {
    renderer.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(nodes)('the web shell on %s ignores SIGUSR1: no inspector, still serving', async (_name, nodeBin) => {
    const inspectorWasFree = !(await canConnect(9229));
    child = spawn(
      nodeBin,
      [
        join(repo, 'bin', 'countersign.mjs'),
        'web',
        '--no-open',
        '--port',
        '0',
        '--data-dir',
        mkdtempSync(join(root, 'data-')),
        '--renderer',
        renderer.rendererDir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const errLines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (l) => errLines.push(l));
    const port = await new Promise<number>((res, rej) => {
      createInterface({ input: child!.stdout! }).on('line', (l) => {
        const m = URL_LINE.exec(l);
        if (m) res(Number(m[1]));
      });
      child!.once('exit', (code) => rej(new Error(`exited with ${code}: ${errLines.join('\n')}`)));
    });
    const before = listeningPorts(child.pid!);
    // The shell's port and its MCP App origin's (electron/web/app-origin.ts), nothing else.
    expect(before).toContain(port);
    expect(before).toHaveLength(2);

    child.kill('SIGUSR1');
    // The signal has been handled once the process says what it did: ignored it, or opened a debugger.
    const said = await new Promise<string>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no reaction to SIGUSR1: ${errLines.join('\n')}`)), 15_000);
      const look = () => {
        const line = errLines.find((l) => /SIGUSR1|Debugger listening/.test(l));
        if (line) (clearTimeout(timer), res(line));
        else setTimeout(look, 25);
      };
      look();
    });
    expect(said).toMatch(/ignored SIGUSR1/);
    expect(errLines.join('\n')).not.toMatch(/Debugger listening/);
    expect(listeningPorts(child.pid!)).toEqual(before);
    if (inspectorWasFree) expect(await canConnect(9229)).toBe(false);
    expect(child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  });
});
