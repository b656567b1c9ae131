// The app's history over the journal: nothing loaded at open, pages read from
// the end, exports streamed in chunks, and entries other processes append seen
// (and announced) while it is open.

import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answer, question, tempDir } from '../history/fixtures/helpers';
import { writeBulkJournal } from '../history/fixtures/bulk-journal';
import { mixedEntries } from '../history/fixtures/mixed-history';
import { buildItems, filterItems, readJournal } from '../history';
import { itemsFromEnd } from '../history/from-end';
import { streamExport, toCsv, toJsonLines } from './history-export';
import { JournalHistory } from './journal-history';

const writer = fileURLToPath(new URL('../history/fixtures/parallel-writer.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

function runWriter(name: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, name, String(count)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

const newestFirst = async (filter = {}) => filterItems(buildItems((await readJournal(dir)).entries), filter).reverse();

describe('streamed export', () => {
  it('writes the same JSON Lines and CSV as the whole-list export, newest first, in small chunks', async () => {
    const entries = mixedEntries(3000, 21);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 32 * 1024 });
    const items = await newestFirst();
    for (const format of ['jsonl', 'csv'] as const) {
      const chunks: string[] = [];
      const count = await streamExport(
        itemsFromEnd(dir, {}, { chunkBytes: 4096 }),
        format,
        (c) => {
          chunks.push(c);
        },
        2000,
      );
      expect(chunks.length).toBeGreaterThan(20);
      // No chunk grows past the chunk size by more than one row.
      for (const c of chunks) expect(c.length).toBeLessThan(2000 + 10_000);
      expect(chunks.join('')).toBe(format === 'csv' ? toCsv(items) : toJsonLines(items));
      expect(count).toBe(format === 'csv' ? items.filter((i) => i.kind === 'question').length : items.length);
    }
  });

  it('waits for a slow sink (back-pressure) and keeps to the filter', async () => {
    const entries = mixedEntries(800, 22);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 32 * 1024 });
    const history = await JournalHistory.open(dir, { watch: false });
    let inSink = false;
    const chunks: string[] = [];
    await history.exportTo({ server: 'slack' }, 'jsonl', async (c) => {
      expect(inSink).toBe(false);
      inSink = true;
      await new Promise((r) => setTimeout(r, 1));
      chunks.push(c);
      inSink = false;
    });
    expect(chunks.join('')).toBe(toJsonLines(await newestFirst({ server: 'slack' })));
    await history.close();
  });
});

describe('JournalHistory', () => {
  it('verify checks the whole chain: intact with the count, then where a changed line breaks it', async () => {
    const entries = mixedEntries(30, 23);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!);
    const history = await JournalHistory.open(dir, { watch: false });
    expect(await history.verify()).toEqual({ ok: true, entries: 30 });
    const [file] = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
    const lines = (await readFile(join(dir, file!), 'utf8')).split('\n');
    lines[9] = lines[9]!.replace('"seq":10', '"seq":10,"x":1');
    await writeFile(join(dir, file!), lines.join('\n'));
    const report = await history.verify();
    expect(report).toMatchObject({ ok: false, entries: 9, firstBreak: { file, line: 10, seq: 10 } });
    expect(report.firstBreak!.detail).toMatch(/\S/);
    await history.close();
  });

  it('sees and announces entries another process appends while it is open', async () => {
    const history = await JournalHistory.open(dir);
    const announced: number[] = [];
    history.onAppended = (seq) => announced.push(seq);
    await history.observer.questionAsked?.({
      question: {
        id: 'q1',
        mode: 'form',
        message: 'Deploy?',
        requestedSchema: { type: 'object', properties: {} },
        origin: { server: 'github', era: 'modern', method: 'tools/call', name: 'deploy', round: 1, key: 'k' },
      },
    } as Parameters<NonNullable<typeof history.observer.questionAsked>>[0]);
    expect((await history.query({})).entries).toHaveLength(1);
    await runWriter('cli', 25);
    // The query reads what is on disk now, whoever wrote it.
    const page = await history.query({ limit: 5 });
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(page.entries).toHaveLength(5);
    expect(page.entries[0]).toMatchObject({ kind: 'other', entry: { kind: 'fault', detail: 'cli 24' } });
    // And the folder watch told the view, without it asking.
    await expect.poll(() => announced.at(-1), { timeout: 5000 }).toBe(26);
    await history.close();
  }, 30_000);

  it("records how many questions a call asked in its call end, and where an answer's question is", async () => {
    const history = await JournalHistory.open(dir, { watch: false });
    const origin = {
      server: 'github',
      era: 'modern' as const,
      method: 'tools/call' as const,
      name: 'deploy',
      round: 1,
      key: 'k',
    };
    const call = {
      callId: 'c1',
      server: 'github',
      method: 'tools/call',
      name: 'deploy',
      protocolVersion: '2026-06-18',
    };
    for (const id of ['q1', 'q2'])
      await history.observer.questionAsked?.({
        question: { id, mode: 'form', message: id, requestedSchema: { type: 'object', properties: {} }, origin },
        call,
      } as Parameters<NonNullable<typeof history.observer.questionAsked>>[0]);
    await history.observer.answerRecorded?.({
      question: { id: 'q2', mode: 'form', message: 'q2', requestedSchema: { type: 'object', properties: {} }, origin },
      answer: { action: 'decline' },
      decidedBy: 'human',
      call,
    } as Parameters<NonNullable<typeof history.observer.answerRecorded>>[0]);
    const ended = { call, outcome: 'complete', rounds: 1, endedAt: new Date().toISOString() };
    await history.observer.callEnded?.(ended as Parameters<NonNullable<typeof history.observer.callEnded>>[0]);
    await history.observer.callEnded?.({
      ...ended,
      call: { ...call, callId: 'c2' },
    } as Parameters<NonNullable<typeof history.observer.callEnded>>[0]);
    const { entries } = await readJournal(dir);
    // The answer names where its question is, so a reader from the end knows where to stop looking.
    expect(entries.find((e) => e.kind === 'answer')).toMatchObject({ questionId: 'q2', questionSeq: 2 });
    expect(entries.filter((e) => e.kind === 'call-end').map((e) => (e as { questions?: number }).questions)).toEqual([
      2, 0,
    ]);
    await history.close();
  });

  it('does not read the journal at open', async () => {
    await writeBulkJournal(dir, 10, (i) => (i % 2 ? answer(i - 1) : question(i)), { rotateBytes: 1024 });
    const history = await JournalHistory.open(dir, { watch: false });
    expect(Object.keys(history)).not.toContain('entries');
    expect((await history.query({ limit: 2 })).entries.map((i) => i.seq)).toEqual([9, 7]);
    await history.close();
  });
});
