// How fast the CLI starts from the source tree (issue 22 item 5): agents
// start `countersign gateway` for every session, and CI runs `countersign
// test` the same way. Each figure is a real process (bin/countersign.mjs, as
// the README documents it) timed from spawn, interleaved round by round with
// a bare `node -e 0` so the ratios share the machine's noise. The CLI runs
// from its bundle (.cache/cli, built first if stale); the same through tsx
// (COUNTERSIGN_CLI_SOURCES=1) is shown for comparison.
// Run alone:  npm run bench -- cli
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshCliBundle } from '../scripts/cli-bundle.mjs';
import type { Figure } from './sections';
import { median } from './stats';

const BIN = fileURLToPath(new URL('../bin/countersign.mjs', import.meta.url));
const ROUNDS = 15;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

/** Ms from spawn until the process exits (status 0), or until `ready` sees its stdout say so. */
function timed(
  args: string[],
  env: Record<string, string>,
  ready?: (stdout: string) => boolean,
  input?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!done && ready?.(out)) {
        done = true;
        resolve(performance.now() - t0);
        child.kill();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (done) return;
      if (code === 0 && !ready) resolve(performance.now() - t0);
      else reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 300)}`));
    });
    if (input) child.stdin.write(input);
  });
}

export async function benchCliStart(): Promise<Figure[]> {
  await freshCliBundle();
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-bench-cli-'));
  try {
    const env = { COUNTERSIGN_DATA_DIR: dataDir };
    const sources = { ...env, COUNTERSIGN_CLI_SOURCES: '1' };
    const gatewayReady = (s: string) => s.includes('"id":1');
    const runs = {
      node: () => timed(['-e', '0'], env),
      version: () => timed([BIN, '--version'], env),
      help: () => timed([BIN, '--help'], env),
      history: () => timed([BIN, 'history', '--json'], env),
      gateway: () => timed([BIN, 'gateway'], env, gatewayReady, INITIALIZE),
      gatewaySources: () => timed([BIN, 'gateway'], sources, gatewayReady, INITIALIZE),
    };
    const samples = Object.fromEntries(Object.keys(runs).map((k) => [k, [] as number[]])) as Record<
      keyof typeof runs,
      number[]
    >;
    // One warm-up round (the OS file cache, tsx's transform cache), then rounds in turn.
    for (let round = -1; round < ROUNDS; round++)
      for (const [name, run] of Object.entries(runs) as Array<[keyof typeof runs, () => Promise<number>]>) {
        const ms = await run();
        if (round >= 0) samples[name].push(ms);
      }
    const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<
      keyof typeof runs,
      number
    >;
    const ms = (v: number) => Math.round(v);
    const x = (v: number) => Math.round((v / m.node) * 100) / 100;
    return [
      { name: 'bare `node -e 0` (median ms)', value: ms(m.node), unit: 'ms', goal: null },
      { name: '`countersign --version` / `node -e 0` (median)', value: x(m.version), unit: '×', goal: '≤ 5×' },
      { name: '`countersign --help` / `node -e 0` (median)', value: x(m.help), unit: '×', goal: null },
      {
        name: '`countersign history --json` on an empty journal (median ms)',
        value: ms(m.history),
        unit: 'ms',
        goal: null,
      },
      { name: 'gateway ready for `initialize` (median ms)', value: ms(m.gateway), unit: 'ms', goal: null },
      { name: 'gateway ready for `initialize` / `node -e 0` (median)', value: x(m.gateway), unit: '×', goal: '≤ 10×' },
      {
        name: 'the same through tsx (COUNTERSIGN_CLI_SOURCES=1) / `node -e 0` (median)',
        value: x(m.gatewaySources),
        unit: '×',
        goal: null,
      },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
