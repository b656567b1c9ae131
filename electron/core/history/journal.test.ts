import { readdir, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerEntry, questionEntry } from './entries';
import { answer, callEnd, fault, fileHandlePrototype, question, tempDir } from './fixtures/helpers';
import { HistoryJournal, HistoryWriteError } from './journal';
import { GENESIS_HASH, type AnswerEntry, type QuestionEntry } from './types';
import { verifyJournal } from './verify';
import type { Question } from '../../../shared/elicitation/types';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

const lines = async (file = 'journal-000001.jsonl') =>
  (await readFile(join(dir, file), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('HistoryJournal: the chain', () => {
  it('numbers entries from 1 and links each to the hash of the one before', async () => {
    const j = await HistoryJournal.open(dir);
    const a = await j.append(question(1));
    const b = await j.append(answer(1));
    const c = await j.append(callEnd(1));
    await j.close();
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
    const stored = await lines();
    expect(stored.map((e) => e.prev)).toEqual([GENESIS_HASH, a.hash, b.hash]);
    expect(stored.map((e) => e.hash)).toEqual([a.hash, b.hash, c.hash]);
    expect(stored[0]).toEqual(a.entry);
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('continues the chain after reopening', async () => {
    let j = await HistoryJournal.open(dir);
    const first = await j.append(question(1));
    await j.close();
    j = await HistoryJournal.open(dir);
    expect(j.head).toMatchObject({ seq: 1, hash: first.hash });
    const second = await j.append(answer(1));
    await j.close();
    expect(second).toMatchObject({ seq: 2 });
    expect(second.entry.prev).toBe(first.hash);
    expect(await verifyJournal(dir)).toMatchObject({ ok: true, entries: 2 });
  });

  it('keeps call order under concurrent appends (group commit) and shares fsyncs', async () => {
    const j = await HistoryJournal.open(dir);
    const proto = await fileHandlePrototype(dir);
    const syncs = vi.spyOn(proto, 'datasync');
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => j.append(question(i))));
    await j.close();
    expect(results.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect((await lines()).map((e) => e.questionId)).toEqual(results.map((_, i) => `q${i}`));
    expect(syncs.mock.calls.length).toBeGreaterThan(0);
    expect(syncs.mock.calls.length).toBeLessThan(200);
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('rejects a body JSON cannot carry without writing it or breaking the chain', async () => {
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    await expect(j.append(fault({ round: Number.NaN }))).rejects.toThrow(/non-finite/);
    await expect(j.append({ kind: 'nope' } as never)).rejects.toThrow(/unknown history entry kind/);
    await expect(j.append({ ...fault(), seq: 99 } as never)).rejects.toThrow(/must not set "seq"/);
    const next = await j.append(fault());
    await j.close();
    expect(next.seq).toBe(2);
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('does not keep references to the caller’s objects', async () => {
    const j = await HistoryJournal.open(dir);
    const body = answer(1);
    const r = await j.append(body);
    (body.content as Record<string, unknown>).note = 'changed later';
    await j.close();
    expect((r.entry as AnswerEntry).content?.note).toBe('secret note 1');
  });

  it('stores the full context of a question and its outcome (builders from shared types)', async () => {
    const q: Question = {
      id: 'Q-1',
      mode: 'url',
      origin: {
        server: 'bank',
        era: 'legacy',
        method: 'tools/call',
        name: 'pay',
        argumentsSummary: 'amount=10',
        round: 2,
        key: 'auth',
      },
      message: 'Sign in',
      url: {
        href: 'http://xn--bnk-sna.example/login',
        scheme: 'http',
        host: 'xn--bnk-sna.example',
        hostUnicode: 'bänk.example',
        registrableDomain: 'xn--bnk-sna.example',
        warnings: [{ code: 'punycode', message: 'The address uses look-alike letters.' }],
        blocked: false,
      },
    };
    const j = await HistoryJournal.open(dir);
    await j.append(questionEntry(q, { callId: 'C', protocolVersion: '2025-06-18', requestState: 'RAW-STATE-VALUE' }));
    await j.append(answerEntry(q, { action: 'accept' }, { decidedBy: 'human', callId: 'C', urlOpened: true }));
    await j.append(callEnd(0, { callId: 'C', server: 'bank', outcome: 'error', isError: true }));
    await j.close();
    const text = await readFile(join(dir, 'journal-000001.jsonl'), 'utf8');
    expect(text).not.toContain('RAW-STATE-VALUE');
    const [qe, ae] = (await lines()) as unknown as [QuestionEntry, AnswerEntry];
    expect(qe).toMatchObject({
      kind: 'question',
      questionId: 'Q-1',
      callId: 'C',
      server: { name: 'bank', era: 'legacy', protocolVersion: '2025-06-18' },
      call: { method: 'tools/call', name: 'pay', argumentsSummary: 'amount=10' },
      round: 2,
      key: 'auth',
      mode: 'url',
      message: 'Sign in',
      url: q.url,
      requestState: { length: 15 },
    });
    expect(qe.requestState?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(ae).toMatchObject({
      kind: 'answer',
      questionId: 'Q-1',
      action: 'accept',
      decidedBy: 'human',
      urlOpened: true,
    });
  });

  it('refuses a requestState that is neither a string nor a digest', async () => {
    const j = await HistoryJournal.open(dir);
    await expect(j.append(question(1, { requestState: { value: 'raw' } as never }))).rejects.toThrow(/requestState/);
    // A digest with extra keys keeps only length and sha256.
    const r = await j.append(
      question(2, { requestState: { length: 3, sha256: 'a'.repeat(64), value: 'raw' } as never }),
    );
    await j.close();
    expect((r.entry as QuestionEntry).requestState).toEqual({ length: 3, sha256: 'a'.repeat(64) });
  });
});

describe('HistoryJournal: write-ahead', () => {
  it('append resolves only after the line is written and fdatasync has returned', async () => {
    const j = await HistoryJournal.open(dir);
    await j.append(question(1)); // creates the file
    const events: string[] = [];
    const handleProto = await fileHandlePrototype(dir);
    const realWrite = handleProto.write;
    const realSync = handleProto.datasync;
    vi.spyOn(handleProto, 'write').mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
      events.push('write');
      return (realWrite as (...a: unknown[]) => Promise<unknown>).apply(this, args) as never;
    });
    vi.spyOn(handleProto, 'datasync').mockImplementation(async function (this: FileHandle) {
      events.push('datasync:start');
      await realSync.call(this);
      events.push('datasync:done');
    });
    // The write-ahead rule rests on this: append() resolves only once the entry is synced.
    const sent = await j.append(answer(1)).then(async (recorded) => {
      events.push('send');
      // At send time the entry is in the file, complete and chained.
      const text = await readFile(join(dir, recorded.file), 'utf8');
      expect(text.endsWith(`"hash":"${recorded.hash}"}\n`)).toBe(true);
      return 'answer sent';
    });
    expect(sent).toBe('answer sent');
    expect(events).toEqual(['write', 'datasync:start', 'datasync:done', 'send']);
    await j.close();
  });

  it('never sends when recording fails, leaves nothing behind, and recovers for the next append', async () => {
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    const before = await readFile(join(dir, 'journal-000001.jsonl'), 'utf8');
    const handleProto = await fileHandlePrototype(dir);
    const spy = vi
      .spyOn(handleProto, 'datasync')
      .mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const send = vi.fn();
    await expect(j.append(answer(1)).then(send)).rejects.toBeInstanceOf(HistoryWriteError);
    expect(send).not.toHaveBeenCalled();
    expect(await readFile(join(dir, 'journal-000001.jsonl'), 'utf8')).toBe(before);
    spy.mockRestore();
    const retry = await j.append(answer(1));
    expect(retry.seq).toBe(2);
    await j.close();
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('fsyncs the folder when it creates a journal file (first file and each rotation)', async () => {
    const proto = await fileHandlePrototype(dir);
    const syncs = vi.spyOn(proto, 'sync');
    const j = await HistoryJournal.open(dir, { rotateBytes: 2000 });
    await j.append(question(1));
    const afterFirst = syncs.mock.calls.length;
    await j.append(question(2));
    const sameFile = syncs.mock.calls.length;
    await j.append(question(3, { message: 'm'.repeat(1500) })); // rotates
    await j.close();
    expect(afterFirst).toBeGreaterThanOrEqual(1);
    expect(sameFile).toBe(afterFirst); // appending to an existing file: fdatasync only
    expect(syncs.mock.calls.length).toBe(afterFirst + 1);
  });

  it('after a write error it cannot undo, refuses further appends until reopened', async () => {
    const j = await HistoryJournal.open(dir);
    await j.append(question(1));
    const proto = await fileHandlePrototype(dir);
    vi.spyOn(proto, 'datasync').mockRejectedValueOnce(new Error('EIO'));
    vi.spyOn(proto, 'truncate').mockRejectedValueOnce(new Error('EIO again'));
    await expect(j.append(answer(1))).rejects.toBeInstanceOf(HistoryWriteError);
    await expect(j.append(answer(1))).rejects.toThrow(/reopen/);
    await j.close();
    vi.restoreAllMocks();
    const again = await HistoryJournal.open(dir);
    expect((await again.append(callEnd(1))).seq).toBeGreaterThan(1);
    await again.close();
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('rejects appends after close', async () => {
    const j = await HistoryJournal.open(dir);
    await j.close();
    await expect(j.append(question(1))).rejects.toBeInstanceOf(HistoryWriteError);
  });
});

describe('HistoryJournal: redaction', () => {
  it('stores field names and a salted hash instead of accepted content, and notes the setting change', async () => {
    const j = await HistoryJournal.open(dir, { redact: true });
    const r = await j.append(answer(1, { content: { password: 'hunter2', remember: true } }));
    expect((r.entry as AnswerEntry).redacted?.fields).toEqual(['password', 'remember']);
    expect((r.entry as AnswerEntry).content).toBeUndefined();
    await j.setRedact(false);
    await j.setRedact(false); // no change, no note
    const plain = await j.append(answer(2, { content: { password: 'visible' } }));
    await j.close();
    const text = await readFile(join(dir, 'journal-000001.jsonl'), 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('visible');
    expect((plain.entry as AnswerEntry).content).toEqual({ password: 'visible' });
    const stored = await lines();
    expect(stored.map((e) => e.kind)).toEqual(['answer', 'note', 'answer']);
    expect(stored[1]).toMatchObject({ note: 'redaction', redact: false });
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('never stores a caller-supplied `redacted` field when redaction is off', async () => {
    const j = await HistoryJournal.open(dir);
    const r = await j.append({ ...answer(1), redacted: { fields: [], salt: '', sha256: '' } } as never);
    await j.close();
    expect((r.entry as AnswerEntry).redacted).toBeUndefined();
  });
});

describe('HistoryJournal: rotation', () => {
  it('starts new files at the size limit and the chain runs on across them', async () => {
    const j = await HistoryJournal.open(dir, { rotateBytes: 2048 });
    const results = [];
    for (let i = 0; i < 30; i++) results.push(await j.append(question(i)));
    // A concurrent burst crosses file boundaries inside one batch too.
    results.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) => j.append(answer(i))))));
    await j.close();
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    expect(files.length).toBeGreaterThan(5);
    expect(files[0]).toBe('journal-000001.jsonl');
    let total = 0;
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      const n = text.split('\n').filter(Boolean).length;
      total += n;
      // Only a single entry larger than the limit could exceed it.
      if (n > 1) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
    }
    expect(total).toBe(60);
    const firstOfSecond = (await lines(files[1]))[0]!;
    const lastOfFirst = (await lines(files[0])).at(-1)!;
    expect(firstOfSecond.prev).toBe(lastOfFirst.hash);
    expect(firstOfSecond.seq).toBe((lastOfFirst.seq as number) + 1);
    expect(results.at(-1)!.file).toBe(files.at(-1));
    const report = await verifyJournal(dir);
    expect(report).toMatchObject({ ok: true, entries: 60, files });

    // Reopening appends to the last file and keeps chaining.
    const again = await HistoryJournal.open(dir, { rotateBytes: 2048 });
    const next = await again.append(fault());
    await again.close();
    expect(next.seq).toBe(61);
    expect((await verifyJournal(dir)).ok).toBe(true);
  });

  it('puts an entry larger than the limit alone in its own file', async () => {
    const j = await HistoryJournal.open(dir, { rotateBytes: 1000 });
    await j.append(question(1));
    const big = await j.append(question(2, { message: 'x'.repeat(5000) }));
    const after = await j.append(question(3));
    await j.close();
    expect(big.file).toBe('journal-000002.jsonl');
    expect(after.file).toBe('journal-000003.jsonl');
    expect((await verifyJournal(dir)).ok).toBe(true);
  });
});

describe('HistoryJournal: the folder', () => {
  it('creates the folder when missing', async () => {
    const nested = join(dir, 'a', 'b', 'history');
    const j = await HistoryJournal.open(nested);
    await j.append(question(1));
    await j.close();
    expect(await readdir(nested)).toContain('journal-000001.jsonl');
  });
});
