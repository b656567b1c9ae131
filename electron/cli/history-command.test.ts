import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answer, callEnd, fault, question, tempDir } from '../core/history/fixtures/helpers';
import { writeBulkJournal } from '../core/history/fixtures/bulk-journal';
import { mixedEntries } from '../core/history/fixtures/mixed-history';
import { buildItems, filterItems, HistoryJournal, readJournal, type EntryInput } from '../core/history/index';
import { toCsv, toJsonLines } from '../core/service/history-export';
import { parseDateArg, runHistoryCommand } from './history-command';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runHistoryCommand(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env });
  return { code, stdout, stderr, lines: stdout.split('\n').filter(Boolean) };
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
async function write(inputs: EntryInput[], at = T0, where = dir): Promise<void> {
  let t = at;
  const j = await HistoryJournal.open(where, { now: () => new Date((t += 60_000) - 60_000) });
  for (const input of inputs) await j.append(input);
  await j.close();
}

const url = {
  href: 'https://login.bank.example/',
  scheme: 'https',
  host: 'login.bank.example',
  hostUnicode: 'login.bank.example',
  registrableDomain: 'bank.example',
  warnings: [],
  blocked: false,
};
const sample: EntryInput[] = [
  question(1), // 10:00
  answer(1), // 10:01
  callEnd(1), // 10:02
  question(2, {
    server: { name: 'bank', era: 'legacy' },
    mode: 'url',
    requestedSchema: undefined,
    url,
    call: { method: 'tools/call', name: 'pay' },
  }), // 10:03
  answer(2, {
    server: 'bank',
    action: 'decline',
    content: undefined,
    decidedBy: 'mute-rule',
    decidedByDetail: 'never pay',
    urlOpened: false,
  }), // 10:04
  callEnd(2, { server: 'bank', outcome: 'error', isError: true }), // 10:05
  fault({ server: 'bank', fault: 'round-limit', detail: 'more than 10 rounds' }), // 10:06
  question(3, { message: 'Still waiting' }), // 10:07
];

describe('countersign history (list)', () => {
  it('prints one line per question with time, server, call, mode, action, decided-by and call outcome; faults too', async () => {
    await write(sample);
    const r = await run(['--dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.lines).toHaveLength(4);
    expect(r.lines[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}github +tools\/call create_issue +form +accept +human +complete$/,
    );
    expect(r.lines[1]).toMatch(
      / bank +tools\/call pay +url +decline +mute-rule \(never pay\) +error +link not opened$/,
    );
    expect(r.lines[2]).toMatch(/ bank +fault round-limit +more than 10 rounds$/);
    expect(r.lines[3]).toMatch(/ github +tools\/call create_issue +form +unanswered +- +-$/);
  });

  it('--json prints one flat object per line', async () => {
    await write(sample);
    const r = await run(['--dir', dir, '--json']);
    const objs = r.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs.map((o) => o.type)).toEqual(['question', 'question', 'fault', 'question']);
    expect(objs[0]).toMatchObject({
      seq: 1,
      questionId: 'q1',
      askedAt: '2026-03-01T10:00:00.000Z',
      answeredAt: '2026-03-01T10:01:00.000Z',
      server: 'github',
      era: 'modern',
      protocolVersion: '2026-06-18',
      method: 'tools/call',
      name: 'create_issue',
      argumentsSummary: 'title="Issue 1"',
      mode: 'form',
      action: 'accept',
      decidedBy: 'human',
      content: { confirm: true, note: 'secret note 1' },
      callOutcome: 'complete',
    });
    expect(objs[1]).toMatchObject({ url, urlOpened: false, callOutcome: 'error', callIsError: true });
    expect(objs[2]).toMatchObject({ type: 'fault', fault: 'round-limit', server: 'bank', seq: 7 });
    expect(objs[3]).toMatchObject({ action: null, decidedBy: null, answeredAt: null, callOutcome: null });
  });

  it('filters by --server, --action, --mode, --decided-by, --since, --until, --search and --limit', async () => {
    await write(sample);
    const names = async (...args: string[]) =>
      (await run(['--dir', dir, '--json', ...args])).lines.map((l) => {
        const o = JSON.parse(l) as { type: string; questionId?: string };
        return o.questionId ?? o.type;
      });
    expect(await names('--server', 'bank')).toEqual(['q2', 'fault']);
    expect(await names('--action', 'accept')).toEqual(['q1']);
    expect(await names('--action', 'none')).toEqual(['q3']);
    expect(await names('--mode', 'url')).toEqual(['q2']);
    expect(await names('--decided-by', 'mute-rule')).toEqual(['q2']);
    expect(await names('--since', '2026-03-01T10:03:00Z')).toEqual(['q2', 'fault', 'q3']);
    expect(await names('--until', '2026-03-01T10:03:00Z')).toEqual(['q1']);
    expect(await names('--search', 'STILL WAIT')).toEqual(['q3']);
    expect(await names('--limit', '2')).toEqual(['fault', 'q3']);
    expect(await names('--server', 'github', '--action', 'accept', '--since', '2026-03-01')).toEqual(['q1']);
  });

  it('says so when there is no history yet (default folder), and names a --dir that does not exist (exit 2)', async () => {
    const fresh = await run([], { COUNTERSIGN_DATA_DIR: join(dir, 'fresh') });
    expect(fresh).toMatchObject({ code: 0, stdout: '' });
    expect(fresh.stderr).toMatch(/No history yet/);
    const typo = await run(['--dir', join(dir, 'nothing')]);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toContain(`no history folder at ${join(dir, 'nothing')}`);
  });

  it('finds the journal in $COUNTERSIGN_DATA_DIR/history without --dir', async () => {
    await write(sample.slice(0, 2), T0, join(dir, 'history'));
    const r = await run([], { COUNTERSIGN_DATA_DIR: dir });
    expect(r.lines).toHaveLength(1);
  });

  it('reads while the app holds the journal open, without repairing a torn tail', async () => {
    await write(sample);
    const j = await HistoryJournal.open(dir);
    const file = join(dir, 'journal-000001.jsonl');
    await writeFile(file, `${await readFile(file, 'utf8')}{"torn`);
    const r = await run(['--dir', dir, '--verify']);
    await j.close();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*unterminated line/);
    expect((await readFile(file, 'utf8')).endsWith('{"torn')).toBe(true);
  });

  it('neutralises control and bidi characters from servers', async () => {
    await write([question(1, { server: { name: 'evil\u001b[2J\u202e', era: 'modern' } })]);
    const r = await run(['--dir', dir]);
    expect(r.stdout).not.toMatch(/\u001b|\u202e/);
    expect(r.lines[0]).toContain('evil\\x1b[2J\\u202e');
  });
});

describe('countersign history verify', () => {
  it('reports an intact chain and its head (exit 0)', async () => {
    await write(sample);
    const r = await run(['verify', '--dir', dir]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toBe('History chain intact: 8 entries in 1 file(s) (journal-000001.jsonl).');
    expect(r.lines[1]).toMatch(/^Head: 8:[0-9a-f]{64}$/);
  });

  it('names the first broken entry and exits 2', async () => {
    await write(sample);
    const file = join(dir, 'journal-000001.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.splice(3, 1); // delete seq 4
    await writeFile(file, lines.join('\n'));
    const r = await run(['verify', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.lines[0]).toBe(
      'History chain BROKEN at journal-000001.jsonl line 4 (seq 5): seq-gap: expected seq 4, found 5: entry 4 is missing (deleted or moved).',
    );
    expect(r.lines[1]).toBe('3 entries before it check out.');
  });

  it('--verify with the listing: verdict first, listing still shown, exit 2 when broken', async () => {
    await write(sample);
    const file = join(dir, 'journal-000001.jsonl');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Still waiting', 'Still waitinG'));
    const r = await run(['--dir', dir, '--verify']);
    expect(r.code).toBe(2);
    expect(r.lines[0]).toMatch(
      /^History chain BROKEN at journal-000001.jsonl line 8 \(seq 8\): hash-mismatch: entry 8 was changed/,
    );
    expect(r.lines).toHaveLength(1 + 1 + 4);
    const ok = await run(['--dir', dir, '--verify', '--json', '--server', 'nobody']);
    expect(JSON.parse(ok.lines[0]!)).toMatchObject({
      type: 'verify',
      ok: false,
      firstBreak: { seq: 8, reason: 'hash-mismatch' },
    });
  });

  it('--json prints the report; --expect-head catches entries cut off the end', async () => {
    await write(sample);
    const first = JSON.parse((await run(['verify', '--json', '--dir', dir])).stdout) as {
      ok: boolean;
      head: { seq: number; hash: string };
    };
    expect(first.ok).toBe(true);
    const file = join(dir, 'journal-000001.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, `${lines.slice(0, 6).join('\n')}\n`);
    expect((await run(['verify', '--dir', dir])).code).toBe(0);
    const r = await run(['verify', '--dir', dir, '--expect-head', `${first.head.seq}:${first.head.hash}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/ends at seq 6, but seq 8 was recorded earlier/);
  });

  it('a folder that does not exist is an error naming it, not "no entries yet" (exit 2)', async () => {
    const r = await run(['verify', '--dir', '/nonexistent/countersign-history']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no history folder at /nonexistent/countersign-history');
  });

  it('any edited byte fails verify, even one that keeps the JSON value (CRLF, key order); --lenient checks hashes only', async () => {
    await write(sample.slice(0, 3));
    const file = join(dir, 'journal-000001.jsonl');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replaceAll('\n', '\r\n'));
    const crlf = await run(['verify', '--dir', dir]);
    expect(crlf.code).toBe(2);
    expect(crlf.stdout).toMatch(/BROKEN at journal-000001\.jsonl line 1 \(seq 1\): not-canonical/);
    expect((await run(['verify', '--dir', dir, '--lenient'])).code).toBe(0);
    // Keys reordered (kind moved to the front), hash still last: the bytes changed, the value did not.
    const lines = original.split('\n');
    const e = JSON.parse(lines[1]!) as Record<string, unknown>;
    const { kind, hash, ...rest } = e;
    lines[1] = JSON.stringify({ kind, ...rest, hash });
    expect(lines[1]).not.toBe(original.split('\n')[1]);
    await writeFile(file, lines.join('\n'));
    const reordered = await run(['verify', '--dir', dir]);
    expect(reordered.code).toBe(2);
    expect(reordered.stdout).toMatch(/line 2 \(seq 2\)/);
    expect((await run(['verify', '--dir', dir, '--lenient'])).code).toBe(0);
  });

  it('an empty folder verifies', async () => {
    expect(await run(['verify', '--dir', dir])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/no entries yet/),
    });
  });
});

describe('reading from the end and exporting', () => {
  async function bigJournal(): Promise<void> {
    const entries = mixedEntries(3000, 31);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 16 * 1024 });
  }
  const newestFirst = async () => buildItems((await readJournal(dir)).entries).reverse();

  it('--limit reads only the end of the journal: a damaged first file is never touched', async () => {
    await bigJournal();
    const want = (await newestFirst()).slice(0, 5).reverse();
    await writeFile(join(dir, 'journal-000001.jsonl'), 'not an entry\n'.repeat(50));
    const r = await run(['--dir', dir, '--json', '--limit', '5']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(want.map((i) => i.seq));
    // The whole list reads everything, and says so.
    expect((await run(['--dir', dir, '--json'])).stderr).toMatch(/50 line\(s\) of the journal could not be read/);
  });

  it('export streams every matching item, newest first, as JSON Lines to stdout or CSV to a private file', async () => {
    await bigJournal();
    const items = await newestFirst();
    const jsonl = await run(['export', '--dir', dir]);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toBe(toJsonLines(items));
    const out = join(dir, '..', `export-${process.pid}.csv`);
    try {
      const csv = await run(['export', '--dir', dir, '--format', 'csv', '--output', out, '--server', 'slack']);
      expect(csv.code).toBe(0);
      expect(csv.stderr).toMatch(/^Exported \d+ question\(s\) to /);
      expect(await readFile(out, 'utf8')).toBe(toCsv(filterItems(items, { server: 'slack' })));
      if (process.platform !== 'win32') expect((await stat(out)).mode & 0o777).toBe(0o600);
      // An existing file is not overwritten.
      const again = await run(['export', '--dir', dir, '--output', out]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('the file exists');
    } finally {
      await rm(out, { force: true });
    }
  });

  it('refuses --limit with export, and --format or --output without it', async () => {
    for (const argv of [
      ['export', '--limit', '3'],
      ['--format', 'csv'],
      ['--output', 'x.csv'],
      ['export', '--format', 'xml'],
    ]) {
      const r = await run([...argv, '--dir', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^countersign history: /);
    }
  });
});

describe('arguments', () => {
  it.each([
    [['--bogus']],
    [['--action', 'approve']],
    [['--mode', 'sms']],
    [['--decided-by', 'cat']],
    [['--since', 'last tuesday']],
    [['--since', '7']],
    [['--limit', '-3']],
    [['--expect-head', '3:abc']],
    [['show']],
    [['verify', 'extra']],
  ])('rejects %j with exit 2 and a message', async (argv) => {
    const r = await run([...argv, '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^countersign history: /);
    expect(r.stdout).toBe('');
  });

  it('the whole listing refuses a journal past its cap and names --limit and export; --limit still works', async () => {
    const entries = mixedEntries(3000, 5);
    await writeBulkJournal(dir, entries.length, (i) => entries[i]!, { rotateBytes: 64 * 1024 });
    const io = (cap: number) => {
      let stdout = '';
      let stderr = '';
      return {
        out: () => ({ stdout, stderr }),
        io: {
          stdout: (s: string) => void (stdout += s),
          stderr: (s: string) => void (stderr += s),
          env: {},
          fullListMaxBytes: cap,
        },
      };
    };
    const small = io(256 * 1024);
    expect(await runHistoryCommand(['--dir', dir], small.io)).toBe(2);
    expect(small.out().stdout).toBe('');
    expect(small.out().stderr).toMatch(
      /^countersign history: the history in .* is [\d.]+ MiB, more than the 0\.3 MiB the whole listing reads; use --limit N for the newest entries, or 'countersign history export' to stream all of them\n$/,
    );
    const limited = io(256 * 1024);
    expect(await runHistoryCommand(['--dir', dir, '--limit', '5'], limited.io)).toBe(0);
    expect(limited.out().stdout.split('\n').filter(Boolean)).toHaveLength(5);
    const roomy = io(64 * 1024 * 1024);
    expect(await runHistoryCommand(['--dir', dir], roomy.io)).toBe(0);
    expect(roomy.out().stdout.length).toBeGreaterThan(0);
  });

  it('--help prints usage', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/countersign history verify/);
  });

  it('parses ages, local dates and date-times', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(parseDateArg('--since', '7d', now).toISOString()).toBe('2026-03-03T12:00:00.000Z');
    expect(parseDateArg('--since', '90m', now).toISOString()).toBe('2026-03-10T10:30:00.000Z');
    expect(parseDateArg('--since', '2026-03-01', now).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(parseDateArg('--since', '2026-03-01T14:00:00Z', now).toISOString()).toBe('2026-03-01T14:00:00.000Z');
  });
});
