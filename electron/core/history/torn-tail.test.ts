import { createHash } from 'node:crypto';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, fileHandlePrototype, question, tempDir } from './fixtures/helpers';
import { HistoryJournal } from './journal';
import { readJournal } from './reader';
import { readSidecar } from './torn-tail';
import type { JournalEntry, NoteEntry } from './types';
import { verifyJournal } from './verify';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

const F1 = 'journal-000001.jsonl';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function build(n: number, rotateBytes?: number): Promise<void> {
  const j = await HistoryJournal.open(dir, { rotateBytes });
  for (let i = 0; i < n; i++) await j.append(i % 2 ? answer(i - 1) : question(i));
  await j.close();
}

async function entries(file = F1): Promise<JournalEntry[]> {
  return (await readFile(join(dir, file), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JournalEntry);
}

describe('torn tail', () => {
  it('sets an unterminated last line aside in a sidecar, truncates, and records a note', async () => {
    await build(5);
    const good = await readFile(join(dir, F1));
    const torn = Buffer.from('{"kind":"answer","questionId":"q4","server":"gith');
    await appendFile(join(dir, F1), torn);

    const j = await HistoryJournal.open(dir);
    expect(j.recovered).toHaveLength(1);
    const note = j.recovered[0]!.entry as NoteEntry;
    expect(note).toMatchObject({
      kind: 'note',
      note: 'torn-tail',
      seq: 6,
      file: F1,
      offset: good.length,
      length: torn.length,
      sha256: sha(torn),
      sidecar: `${F1}.torn`,
    });
    expect(j.head.seq).toBe(6);
    const next = await j.append(question(9));
    await j.close();
    expect(next.seq).toBe(7);

    // The journal holds the good entries, the note and what came after; no torn bytes.
    const text = await readFile(join(dir, F1));
    expect(text.subarray(0, good.length).equals(good)).toBe(true);
    expect(text.includes(torn)).toBe(false);
    expect((await entries()).map((e) => e.kind)).toEqual([
      'question',
      'answer',
      'question',
      'answer',
      'question',
      'note',
      'question',
    ]);
    // The bytes are in the sidecar, exactly.
    const { records } = await readSidecar(join(dir, `${F1}.torn`));
    expect(records).toHaveLength(1);
    expect(Buffer.from(records[0]!.base64, 'base64').equals(torn)).toBe(true);
    expect(records[0]).toMatchObject({ file: F1, offset: good.length, length: torn.length, noteSeq: 6 });
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 7, warnings: [] });
  });

  it('sets aside trailing garbage lines too (zeros left by a power loss)', async () => {
    await build(3);
    const garbage = Buffer.concat([Buffer.alloc(300), Buffer.from('\n'), Buffer.alloc(40)]);
    await appendFile(join(dir, F1), garbage);
    const j = await HistoryJournal.open(dir);
    await j.close();
    expect(j.recovered[0]!.entry).toMatchObject({ note: 'torn-tail', length: garbage.length, seq: 4 });
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 4 });
  });

  it('handles a torn first line of a freshly rotated file (chain continues from the file before)', async () => {
    await build(6, 1500);
    const files = (await verifyJournal(dir)).files;
    const lastSeq = (await verifyJournal(dir)).head!.seq;
    const next = `journal-${String(files.length + 1).padStart(6, '0')}.jsonl`;
    await writeFile(join(dir, next), '{"kind":"question","questionId"');
    const j = await HistoryJournal.open(dir, { rotateBytes: 1500 });
    await j.append(question(99));
    await j.close();
    expect(j.recovered[0]!.entry).toMatchObject({ seq: lastSeq + 1, file: next });
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: lastSeq + 2 });
  });

  it('a torn tail larger than the scan window is found', async () => {
    await build(2);
    const torn = `{"kind":"question","message":"${'y'.repeat(200_000)}`;
    await appendFile(join(dir, F1), torn);
    const j = await HistoryJournal.open(dir);
    await j.close();
    expect(j.recovered[0]!.entry).toMatchObject({ seq: 3, length: torn.length });
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('a crash between copying to the sidecar and truncating: copied once, noted once', async () => {
    await build(3);
    await appendFile(join(dir, F1), '{"torn":');
    const proto = await fileHandlePrototype(dir);
    vi.spyOn(proto, 'truncate').mockRejectedValueOnce(new Error('simulated crash'));
    await expect(HistoryJournal.open(dir)).rejects.toThrow('simulated crash');
    vi.restoreAllMocks();
    expect((await readSidecar(join(dir, `${F1}.torn`))).records).toHaveLength(1);

    const j = await HistoryJournal.open(dir);
    await j.close();
    expect((await readSidecar(join(dir, `${F1}.torn`))).records).toHaveLength(1);
    expect((await entries()).filter((e) => e.kind === 'note')).toHaveLength(1);
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 4, warnings: [] });
  });

  it('a crash between truncating and writing the note: the note is written at the next open', async () => {
    await build(3);
    await appendFile(join(dir, F1), '{"torn":');
    const proto = await fileHandlePrototype(dir);
    // The sidecar sync and the truncation sync succeed; the note's sync fails.
    const real = proto.datasync;
    let calls = 0;
    vi.spyOn(proto, 'datasync').mockImplementation(async function (this: typeof proto) {
      if (++calls === 3) throw new Error('simulated crash');
      return real.call(this);
    });
    await expect(HistoryJournal.open(dir)).rejects.toThrow('simulated crash');
    vi.restoreAllMocks();
    expect((await entries()).map((e) => e.kind)).toEqual(['question', 'answer', 'question']);
    expect((await stat(join(dir, F1))).size).toBe((await readFile(join(dir, F1), 'utf8')).length);

    const j = await HistoryJournal.open(dir);
    await j.close();
    expect(j.recovered[0]!.entry).toMatchObject({ note: 'torn-tail', seq: 4 });
    const again = await HistoryJournal.open(dir);
    await again.close();
    expect(again.recovered).toHaveLength(0);
    expect((await entries()).filter((e) => e.kind === 'note')).toHaveLength(1);
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 4, warnings: [] });
  });

  it('keeps every torn region across repeated crashes', async () => {
    await build(2);
    for (let round = 0; round < 3; round++) {
      await appendFile(join(dir, F1), `{"round":${round}`);
      const j = await HistoryJournal.open(dir);
      await j.append(question(100 + round));
      await j.close();
    }
    const { records } = await readSidecar(join(dir, `${F1}.torn`));
    expect(records.map((r) => Buffer.from(r.base64, 'base64').toString())).toEqual([
      '{"round":0',
      '{"round":1',
      '{"round":2',
    ]);
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 2 + 3 * 2, warnings: [] });
  });

  it('warns when a noted sidecar has gone missing', async () => {
    await build(2);
    await appendFile(join(dir, F1), '{"torn":');
    await (await HistoryJournal.open(dir)).close();
    await writeFile(join(dir, `${F1}.torn`), '');
    const r = await verifyJournal(dir);
    expect(r.ok).toBe(true);
    expect(r.warnings[0]).toMatch(/missing from journal-000001.jsonl.torn/);
  });

  it('the read-only reader leaves a torn tail alone and reports it', async () => {
    await build(4);
    await appendFile(join(dir, F1), '{"torn":');
    const r = await readJournal(dir);
    expect(r.entries).toHaveLength(4);
    expect(r.pendingTail).toMatchObject({ file: F1, length: 8 });
    expect(r.problems).toEqual([]);
    expect((await readFile(join(dir, F1), 'utf8')).endsWith('{"torn":')).toBe(true);
  });
});

describe('tail scan', () => {
  it('finds the last entry when it alone is larger than the scan window', async () => {
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    const big = await j.append(question(2, { message: 'z'.repeat(300_000) }));
    await j.close();
    await appendFile(join(dir, F1), '{"torn');
    const again = await HistoryJournal.open(dir);
    expect(again.recovered[0]!.entry).toMatchObject({ seq: 3, prev: big.hash });
    await again.close();
    expect((await verifyJournal(dir)).ok).toBe(true);
  });
});
