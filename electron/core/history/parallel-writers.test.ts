// Several processes appending to one journal at once (the app, the web shell and
// `countersign call`s all record): one chain, every entry once, seqs contiguous.

import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
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
  /** Resolves once the writer has said `ready` for the `round`-th time (from 1) and waits for `go()`. */
  ready(round: number): Promise<void>;
  /** Lets the writer start its next round; the last one closes its stdin. */
  go(last: boolean): void;
  done: Promise<void>;
}

function spawnWriter(name: string, count: number, options: { rotateBytes?: number; rounds?: number } = {}): Writer {
  const { rotateBytes, rounds = 1 } = options;
  const args = ['--import', 'tsx', writer, dir, name, String(count), ...(rotateBytes ? [String(rotateBytes)] : [])];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, WRITER_ROUNDS: String(rounds) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  let readies = 0;
  let exited = false;
  const waiting: { round: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  const settle = () => {
    for (const w of [...waiting]) {
      if (readies >= w.round) w.resolve();
      else if (exited) w.reject(new Error(`writer ${name} ended before round ${w.round}: ${err}`));
      else continue;
      waiting.splice(waiting.indexOf(w), 1);
    }
  };
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    readies = out.split('ready\n').length - 1;
    settle();
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      exited = true;
      settle();
      if (code === 0) resolve();
      else reject(new Error(`writer ${name} exited ${code}: ${err}`));
    });
  });
  // A writer that fails before a round is reported by ready(); done's rejection must not go unheard meanwhile.
  done.catch(() => undefined);
  return {
    done,
    ready: (round) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ round, resolve, reject });
        settle();
      }),
    go: (last) => (last ? child.stdin.end('go\n') : child.stdin.write('go\n')),
  };
}

/** Writers that take turns: every round of each starts once all have finished the round before. */
async function runWriters(writers: Writer[], rounds: number): Promise<void> {
  for (let round = 1; round <= rounds; round++) {
    await Promise.all(writers.map((w) => w.ready(round)));
    for (const w of writers) w.go(round === rounds);
  }
  await Promise.all(writers.map((w) => w.done));
}

/** One writer, started as soon as it is ready. */
async function runWriter(name: string, count: number): Promise<void> {
  await runWriters([spawnWriter(name, count)], 1);
}

describe('HistoryJournal: several writers', () => {
  it('4 processes × 200 appends (with rotation) give one verified chain, every entry once', async () => {
    const names = ['w1', 'w2', 'w3', 'w4'];
    // All four open the journal first and append in four rounds they start together, so
    // they overlap whatever the machine's scheduling does (a slow start of one cannot let
    // another finish first).
    const rounds = 4;
    const writers = names.map((n) => spawnWriter(n, 200, { rotateBytes: 16 * 1024, rounds }));
    await runWriters(writers, rounds);
    const report = await verifyJournal(dir);
    expect(report).toMatchObject({ ok: true, entries: 800 });
    expect(report.files.length).toBeGreaterThan(3);
    const { entries } = await readJournal(dir);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 800 }, (_, i) => i + 1));
    const details = entries.map((e) => (e as { detail?: string }).detail);
    expect(new Set(details).size).toBe(800);
    for (const n of names) for (let i = 0; i < 200; i++) expect(details).toContain(`${n} ${i}`);
    // They really took turns: the chain is not four blocks one after another. Each quarter of
    // it holds the same round (50 appends) of every writer, in whatever order the lock let them in.
    for (let r = 0; r < rounds; r++) {
      const quarter = details.slice(r * 200, (r + 1) * 200);
      const expected = names.flatMap((n) => Array.from({ length: 50 }, (_, i) => `${n} ${r * 50 + i}`));
      expect([...quarter].sort()).toEqual(expected.sort());
    }
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

  it('waits out a busy lock that keeps changing hands longer than the timeout, and gives up only on one holder', async () => {
    const j = await HistoryJournal.open(dir, { lockTimeoutMs: 300 });
    await j.append(question(1));
    // Live writers (our parent stands in for them) hand the lock on every 60 ms for 900 ms: three timeouts in all,
    // never one holder for one. A writer that keeps losing that race is slow, not stuck.
    const lock = join(dir, 'writer.lock');
    const holderText = (nonce: string) =>
      JSON.stringify({ pid: process.ppid, host: hostname(), boot: Date.now() - uptime() * 1000, nonce });
    await writeFile(lock, holderText('h0'));
    let turn = 0;
    const busy = setInterval(() => void writeFile(lock, holderText(`h${++turn}`)), 60);
    const done = new Promise<void>((r) =>
      setTimeout(() => {
        clearInterval(busy);
        void rm(lock, { force: true }).then(() => r());
      }, 900),
    );
    await j.append(question(2));
    await done;
    expect(turn).toBeGreaterThan(10);
    await j.close();
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 2 });
  });
});
