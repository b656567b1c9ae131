// Several processes appending to one journal at once (the app, the web shell and
// `countersign call`s all record): one chain, every entry once, seqs contiguous.

import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { question, tempDir } from './fixtures/helpers';
import { HistoryJournal } from './journal';
import { readJournal } from './reader';
import { verifyJournal } from './verify';

const writer = fileURLToPath(new URL('./fixtures/parallel-writer.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

interface Writer {
  /** Resolves once the writer has opened the journal and waits for `start()`. */
  ready: Promise<void>;
  start(): void;
  done: Promise<void>;
}

function spawnWriter(name: string, count: number, rotateBytes?: number): Writer {
  const args = ['--import', 'tsx', writer, dir, name, String(count), ...(rotateBytes ? [String(rotateBytes)] : [])];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, WRITER_START_BARRIER: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${name} exited ${code}: ${err}`))));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('ready\n')) resolve();
    });
    done.then(() => reject(new Error(`writer ${name} ended before it was ready`)), reject);
  });
  return { ready, done, start: () => child.stdin.end('go\n') };
}

/** One writer, started as soon as it is ready. */
async function runWriter(name: string, count: number, rotateBytes?: number): Promise<void> {
  const w = spawnWriter(name, count, rotateBytes);
  await w.ready;
  w.start();
  await w.done;
}

describe('HistoryJournal: several writers', () => {
  it('4 processes × 200 appends (with rotation) give one verified chain, every entry once', async () => {
    const names = ['w1', 'w2', 'w3', 'w4'];
    // All four open the journal first and start appending together (a start barrier), so
    // whether they overlap does not hang on how fast each process happened to load.
    const writers = names.map((n) => spawnWriter(n, 200, 16 * 1024));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.start();
    await Promise.all(writers.map((w) => w.done));
    const report = await verifyJournal(dir);
    expect(report).toMatchObject({ ok: true, entries: 800 });
    expect(report.files.length).toBeGreaterThan(3);
    const { entries } = await readJournal(dir);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 800 }, (_, i) => i + 1));
    const details = entries.map((e) => (e as { detail?: string }).detail);
    expect(new Set(details).size).toBe(800);
    for (const n of names) for (let i = 0; i < 200; i++) expect(details).toContain(`${n} ${i}`);
    // They really interleaved: the chain is not four blocks one after another.
    const switches = entries.filter(
      (e, i) => i > 0 && (e as { server?: string }).server !== (entries[i - 1] as { server?: string }).server,
    );
    expect(switches.length).toBeGreaterThan(3);
  }, 60_000);

  it('two journals open on one folder in one process both append to the same chain', async () => {
    const a = await HistoryJournal.open(dir);
    const b = await HistoryJournal.open(dir);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).append(question(i))));
    await Promise.all([a.close(), b.close()]);
    expect(results.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 50 });
  });

  it('continues after another process wrote meanwhile (the tail is re-read before each append)', async () => {
    const app = await HistoryJournal.open(dir);
    await app.append(question(1));
    await runWriter('cli', 3);
    const next = await app.append(question(2));
    await app.close();
    expect(next.seq).toBe(5);
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 5 });
  }, 30_000);

  it('breaks a lock left by a dead process, and waits for a live one', async () => {
    const deadPid = 2 ** 22 + 12345;
    // The precondition the test relies on: no process has that id.
    expect(() => process.kill(deadPid, 0)).toThrow();
    await writeFile(
      join(dir, 'writer.lock'),
      JSON.stringify({ pid: deadPid, host: hostname(), boot: Date.now() - uptime() * 1000, nonce: 'x' }),
    );
    const j = await HistoryJournal.open(dir, { lockTimeoutMs: 300 });
    await j.append(question(1));
    // A live holder (our parent process stands in for a writer mid-append) is waited for, then named.
    await writeFile(
      join(dir, 'writer.lock'),
      JSON.stringify({ pid: process.ppid, host: hostname(), boot: Date.now() - uptime() * 1000, nonce: 'y' }),
    );
    await expect(j.append(question(2))).rejects.toThrow(/stayed locked .* by process \d+/);
    expect(await readFile(join(dir, 'writer.lock'), 'utf8')).toContain('"nonce":"y"');
    await j.close();
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 1 });
  });
});
