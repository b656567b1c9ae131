// A writer process killed with SIGKILL in the middle of a burst of appends: every
// entry it acknowledged (printed after append resolved) must survive, and the chain
// must still verify after the next open sets any torn tail aside.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from './fixtures/helpers';
import { HistoryJournal } from './journal';
import { verifyJournal } from './verify';

const writer = fileURLToPath(new URL('./fixtures/burst-writer.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const GUARD_MS = 90_000;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Run the writer until it has acknowledged at least `minAcks` entries, then SIGKILL it mid-burst. */
function burstAndKill(
  minAcks: number,
  padding = 0,
  killJitterMs = 5,
): Promise<{ acked: number[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', writer, dir, String(padding ? 64 * 1024 * 1024 : 48 * 1024), String(padding)],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    let killed = false;
    const acked: number[] = [];
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (err += d));
    child.stdout.on('data', (d: string) => {
      out += d;
      const lines = out.split('\n');
      out = lines.pop()!; // keep a partial line until it is complete
      for (const line of lines) if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      if (!killed && acked.length >= minAcks) {
        killed = true;
        // A random delay so the kill lands anywhere in the cycle: encoding, write(), fdatasync.
        setTimeout(() => child.kill('SIGKILL'), Math.random() * killJitterMs);
      }
    });
    // A guard against a writer that hangs, not a speed target: generous, since a loaded CI machine
    // fdatasyncs 4 MB entries slowly.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`writer did not reach ${minAcks} acks in ${GUARD_MS / 1000} s; stderr: ${err}`));
    }, GUARD_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!killed) reject(new Error(`writer exited on its own (code ${code}): ${err}`));
      // Lines read after the kill but before exit were acknowledged before it: count them too.
      for (const line of out.split('\n')) if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      resolve({ acked, signal });
    });
  });
}

it('every acknowledged entry survives SIGKILL mid-burst and the chain verifies', async () => {
  let expectedAtLeast = 0;
  for (let round = 0; round < 6; round++) {
    // The last rounds write ~4 MB entries, so the kill often lands inside a write() and leaves a torn tail.
    const { acked, signal } =
      round < 3 ? await burstAndKill(40 + round * 60) : await burstAndKill(3 + round, 4 * 1024 * 1024, 400);
    expect(signal).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThan(0);

    // Reopen as the app would after the crash: torn tail (if any) set aside, noted.
    const journal = await HistoryJournal.open(dir);
    const { entries } = await journal.readAll();
    await journal.close();
    const seqs = new Set(entries.map((e) => e.seq));
    const missing = acked.filter((s) => !seqs.has(s));
    expect(missing).toEqual([]);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries.length).toBeGreaterThanOrEqual(Math.max(expectedAtLeast, ...acked));
    expectedAtLeast = entries.length;

    const report = await verifyJournal(dir);
    expect(report.firstBreak).toBeUndefined();
    expect(report).toMatchObject({ ok: true, entries: entries.length, warnings: [] });
  }
  // Whether a kill left a torn tail is timing-dependent; torn-tail.test.ts covers torn tails deterministically.
}, 600_000);
