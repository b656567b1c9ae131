import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeEntry } from './chain';
import { answer, callEnd, question, tempDir } from './fixtures/helpers';
import { HistoryJournal } from './journal';
import type { EntryBody, JournalEntry } from './types';
import { verifyJournal } from './verify';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const F1 = 'journal-000001.jsonl';

/** 12 entries (question, answer, call end × 4), in one file or, with rotateBytes, several. */
async function build(rotateBytes?: number): Promise<string[]> {
  const j = await HistoryJournal.open(dir, { rotateBytes });
  for (let i = 1; i <= 4; i++) {
    await j.append(question(i));
    await j.append(answer(i));
    await j.append(callEnd(i));
  }
  await j.close();
  return (await verifyJournal(dir)).files;
}

async function getLines(file = F1): Promise<string[]> {
  return (await readFile(join(dir, file), 'utf8')).split('\n').slice(0, -1);
}
async function putLines(lines: string[], file = F1): Promise<void> {
  await writeFile(join(dir, file), lines.map((l) => `${l}\n`).join(''));
}

describe('verifyJournal', () => {
  it('passes an untouched journal and reports its head', async () => {
    await build();
    const last = JSON.parse((await getLines()).at(-1)!) as JournalEntry;
    expect(await verifyJournal(dir)).toEqual({
      ok: true,
      entries: 12,
      files: [F1],
      head: { seq: 12, hash: last.hash, file: F1 },
      warnings: [],
    });
  });

  it('passes an empty or missing folder', async () => {
    expect(await verifyJournal(join(dir, 'none'))).toMatchObject({ ok: true, entries: 0 });
  });

  it('detects an edited entry (hash mismatch) and names file, line and seq', async () => {
    await build();
    const lines = await getLines();
    lines[4] = lines[4]!.replace('secret note 2', 'secret note X');
    await putLines(lines);
    const r = await verifyJournal(dir);
    expect(r).toMatchObject({
      ok: false,
      entries: 4,
      firstBreak: { file: F1, line: 5, seq: 5, reason: 'hash-mismatch' },
    });
    expect(r.firstBreak?.detail).toMatch(/entry 5 was changed/);
  });

  it('detects an edited header field (seq, ts or prev) even if the line still parses', async () => {
    await build();
    const lines = await getLines();
    lines[2] = lines[2]!.replace(/"ts":"[^"]+"/, '"ts":"2000-01-01T00:00:00.000Z"');
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 3, seq: 3, reason: 'hash-mismatch' });
  });

  it('detects an edited entry whose hash was recomputed (the next entry no longer follows)', async () => {
    await build();
    const lines = await getLines();
    const e = JSON.parse(lines[4]!) as JournalEntry & Record<string, unknown>;
    const { v: _v, seq, ts, prev, hash: _h, ...body } = e;
    (body as { action: string }).action = 'decline';
    lines[4] = encodeEntry(body, seq, ts, prev).line.slice(0, -1);
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ file: F1, line: 6, seq: 6, reason: 'prev-mismatch' });
  });

  it('detects a deleted entry', async () => {
    await build();
    const lines = await getLines();
    lines.splice(6, 1); // seq 7
    await putLines(lines);
    const r = await verifyJournal(dir);
    expect(r.firstBreak).toMatchObject({ file: F1, line: 7, seq: 8, reason: 'seq-gap' });
    expect(r.firstBreak?.detail).toMatch(/entry 7 is missing/);
  });

  it('detects several deleted entries', async () => {
    await build();
    const lines = await getLines();
    lines.splice(2, 3);
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak?.detail).toMatch(/entries 3 to 5 are missing/);
  });

  it('detects a deleted entry whose successors were renumbered (prev no longer matches)', async () => {
    await build();
    const lines = (await getLines()).map((l) => JSON.parse(l) as JournalEntry);
    lines.splice(6, 1);
    const rewritten = lines.map((e, i) => {
      if (i < 6) return JSON.stringify(e);
      const { v: _v, seq: _s, ts, prev, hash: _h, ...body } = e as JournalEntry & Record<string, unknown>;
      return encodeEntry(body, i + 1, ts, prev).line.slice(0, -1);
    });
    await putLines(rewritten);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 7, seq: 7, reason: 'prev-mismatch' });
  });

  it('detects reordered entries', async () => {
    await build();
    const lines = await getLines();
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    await putLines(lines);
    const r = await verifyJournal(dir);
    expect(r.firstBreak).toMatchObject({ file: F1, line: 4, seq: 5, reason: 'seq-out-of-order' });
    expect(r.firstBreak?.detail).toMatch(/entry 4 comes later \(line 5\)/);
  });

  it('detects a duplicated entry', async () => {
    await build();
    const lines = await getLines();
    lines.splice(5, 0, lines[4]!);
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 6, seq: 5, reason: 'seq-out-of-order' });
  });

  it('detects an inserted forged entry', async () => {
    await build();
    const lines = await getLines();
    const prior = JSON.parse(lines[2]!) as JournalEntry;
    lines.splice(3, 0, encodeEntry(answer(9), 4, prior.ts, prior.hash).line.slice(0, -1));
    await putLines(lines);
    // The forgery fits after entry 3, but the real entry 4 then repeats seq 4.
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 5, seq: 4, reason: 'seq-out-of-order' });
  });

  it('detects garbage and empty lines', async () => {
    await build();
    const lines = await getLines();
    lines[1] = 'not json';
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 2, reason: 'unparseable' });
    lines[1] = '';
    await putLines(lines);
    expect((await verifyJournal(dir)).firstBreak).toMatchObject({ line: 2, reason: 'unparseable' });
  });

  describe('across rotated files', () => {
    it('verifies the chain across files', async () => {
      const files = await build(1200);
      expect(files.length).toBeGreaterThan(2);
      expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 12 });
    });

    it('detects a deleted middle file', async () => {
      const files = await build(1200);
      await rm(join(dir, files[1]!));
      const firstOfThird = JSON.parse((await getLines(files[2]))[0]!) as JournalEntry;
      expect((await verifyJournal(dir)).firstBreak).toMatchObject({
        file: files[2],
        line: 1,
        seq: firstOfThird.seq,
        reason: 'seq-gap',
      });
    });

    it('detects a deleted first file', async () => {
      const files = await build(1200);
      await rm(join(dir, files[0]!));
      expect((await verifyJournal(dir)).firstBreak).toMatchObject({ file: files[1], line: 1, reason: 'seq-gap' });
    });

    it('detects an edit in a later file', async () => {
      const files = await build(1200);
      const last = files.at(-1)!;
      const lines = await getLines(last);
      lines[0] = lines[0]!.replace('github', 'gitlab');
      await putLines(lines, last);
      expect((await verifyJournal(dir)).firstBreak).toMatchObject({ file: last, line: 1, reason: 'hash-mismatch' });
    });

    it('detects files swapped by renaming', async () => {
      const files = await build(1200);
      const a = await readFile(join(dir, files[0]!));
      const b = await readFile(join(dir, files[1]!));
      await writeFile(join(dir, files[0]!), b);
      await writeFile(join(dir, files[1]!), a);
      expect((await verifyJournal(dir)).firstBreak).toMatchObject({ file: files[0], line: 1, reason: 'seq-gap' });
    });

    it('treats a cut-off line before the last file as a break', async () => {
      const files = await build(1200);
      const text = await readFile(join(dir, files[0]!), 'utf8');
      await writeFile(join(dir, files[0]!), text.slice(0, -10));
      expect((await verifyJournal(dir)).firstBreak).toMatchObject({ file: files[0], reason: 'unterminated' });
    });
  });

  it('reports an unterminated last line as a warning, not a break', async () => {
    await build();
    const text = await readFile(join(dir, F1), 'utf8');
    await writeFile(join(dir, F1), `${text}{"half":`);
    const r = await verifyJournal(dir);
    expect(r).toMatchObject({ ok: true, entries: 12 });
    expect(r.warnings[0]).toMatch(/unterminated line of 8 bytes/);
  });

  it('with a head recorded earlier, detects entries cut off the end', async () => {
    await build();
    const { head } = await verifyJournal(dir);
    expect((await verifyJournal(dir, { expectHead: head! })).ok).toBe(true);
    const lines = await getLines();
    await putLines(lines.slice(0, -2));
    expect((await verifyJournal(dir)).ok).toBe(true); // the chain alone cannot tell
    const r = await verifyJournal(dir, { expectHead: head! });
    expect(r.firstBreak).toMatchObject({ reason: 'head-mismatch', seq: 10 });
    expect(r.firstBreak?.detail).toMatch(/ends at seq 10, but seq 12 was recorded/);
  });

  it('strict mode also requires canonical bytes', async () => {
    await build();
    const lines = await getLines();
    const e = JSON.parse(lines[0]!) as JournalEntry;
    const { hash, ...rest } = e;
    lines[0] = JSON.stringify({ hash, ...rest });
    await putLines(lines);
    expect((await verifyJournal(dir)).ok).toBe(true);
    expect((await verifyJournal(dir, { strict: true })).firstBreak).toMatchObject({ line: 1, reason: 'not-canonical' });
  });
});
