// Reading the journal from its end: every line once, newest first, across rotated
// files, whatever the chunk size; an unterminated tail is not an entry.

import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './fixtures/helpers';
import { writeBulkJournal } from './fixtures/bulk-journal';
import { mixedEntries } from './fixtures/mixed-history';
import { readJournal } from './reader';
import { linesFromEnd, newestEntries, parseEntryLine } from './tail-reader';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** A journal of `count` mixed entries. */
function bulk(count: number, seed: number, options: { rotateBytes: number }): Promise<string[]> {
  const entries = mixedEntries(count, seed);
  return writeBulkJournal(dir, count, (i) => entries[i]!, options);
}

async function seqsFromEnd(chunkBytes: number, extra: Parameters<typeof linesFromEnd>[1] = {}): Promise<number[]> {
  const seqs: number[] = [];
  for await (const lines of linesFromEnd(dir, { chunkBytes, ...extra })) {
    for (const line of lines) seqs.push(parseEntryLine(line.text)!.seq);
  }
  return seqs;
}

describe('linesFromEnd', () => {
  it('gives every entry of every rotated file once, newest first, for any chunk size', async () => {
    const files = await bulk(600, 3, { rotateBytes: 4096 });
    expect(files.length).toBeGreaterThan(20);
    const expected = Array.from({ length: 600 }, (_, i) => 600 - i);
    // Chunks smaller than a line, odd sizes that cut lines and files anywhere, and bigger than a file.
    for (const chunk of [97, 500, 4096, 1 << 20]) expect(await seqsFromEnd(chunk)).toEqual(expected);
  });

  it('puts lines longer than a chunk together from several reads', async () => {
    await bulk(40, 8, { rotateBytes: 2048 });
    const expected = Array.from({ length: 40 }, (_, i) => 40 - i);
    for (const chunk of [3, 7]) expect(await seqsFromEnd(chunk)).toEqual(expected);
  });

  it('reports where each line is, so a reader can come back to it', async () => {
    await bulk(50, 4, { rotateBytes: 2048 });
    const { entries } = await readJournal(dir);
    for await (const lines of linesFromEnd(dir, { chunkBytes: 300 })) {
      for (const line of lines) {
        const e = parseEntryLine(line.text)!;
        expect(e).toEqual(entries[e.seq - 1]);
        expect(line.file).toMatch(/^journal-\d{6}\.jsonl$/);
        expect(line.offset).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('skips an unterminated tail (an append in flight) and keeps to a pinned size', async () => {
    const files = await bulk(40, 5, { rotateBytes: 3000 });
    const last = join(dir, files.at(-1)!);
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(last));
    await appendFile(last, '{"v":1,"seq":41,"kind":"question","ts":"2026');
    expect((await seqsFromEnd(64))[0]).toBe(40);
    // Appends after a pinned size are not read: a snapshot stays a snapshot.
    await appendFile(last, '-01-01T00:00:00.000Z"}\n');
    expect((await seqsFromEnd(64, { lastFileSize: size }))[0]).toBe(40);
    expect((await seqsFromEnd(64))[0]).toBe(41);
  });

  it('reads nothing from a missing or empty folder', async () => {
    expect(await seqsFromEnd(64, { files: [] })).toEqual([]);
    expect(await newestEntries(join(dir, 'none'), 3)).toEqual([]);
    expect(await newestEntries(dir, 3)).toEqual([]);
  });

  it('newestEntries gives the last few entries cheaply', async () => {
    await bulk(30, 6, { rotateBytes: 1024 });
    expect((await newestEntries(dir, 3, 50)).map((e) => e.seq)).toEqual([30, 29, 28]);
  });
});
