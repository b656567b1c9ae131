// A hostile server's text, run through the real CLI (bin/countersign.mjs as a
// process, stdout and stderr read as bytes): the escape sequences that clear
// the screen and retitle the terminal, and the bidi override, never reach
// either stream raw; each is printed in its escaped form. The fixture puts
// them in a task's id, status message, question, result and error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCommandLine } from '../fixtures/spawn-fixture';
import { HOSTILE, HOSTILE_ID, HOSTILE_SHOWN } from '../fixtures/servers/hostile-text';
import { startBin, type BinProcess } from '../support/cli';

const tasks = fixtureCommandLine('tasks-modern');
/** HOSTILE_ID as printed. */
const ID_SHOWN = '\\x1b]0;id\\x07\\u202e';

/** What a terminal would obey: ESC, BEL, C1 controls, bidi overrides and isolates. */
const RAW = /[\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/;

async function run(argv: string[], data: string, answer?: string) {
  const bin = startBin(argv, data, answer === undefined ? 'ignore' : 'pipe');
  if (answer !== undefined) {
    await until(bin, () => bin.stderr().includes('[ASK] answer:'));
    bin.child.stdin.end(`${answer}\n`);
  }
  const code = await bin.exited;
  return { code, stdout: bin.stdout(), stderr: bin.stderr() };
}

async function until(bin: BinProcess, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; stderr so far:\n${bin.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function expectNoRaw(out: { stdout: string; stderr: string }): void {
  expect(out.stdout).not.toMatch(RAW);
  expect(out.stderr).not.toMatch(RAW);
}

describe('a hostile server through the real CLI', () => {
  const data = mkdtempSync(join(tmpdir(), 'cs-term-'));

  it('call: the task id and status ([TASK]), the question ([ELICIT]) and the result are printed escaped', async () => {
    const r = await run(
      ['call', '--stdio', tasks, '--name', 'fx', '--tool', 'hostile_text', '--elicit', 'accept'],
      data,
    );
    expectNoRaw(r);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`result ${HOSTILE_SHOWN} (accept)`);
    expect(r.stderr).toMatch(
      new RegExp(`\\[TASK\\] ${escapeRe(ID_SHOWN)}[0-9a-f-]{36} working "status ${escapeRe(HOSTILE_SHOWN)}"`),
    );
    expect(r.stderr).toContain(`[ELICIT] fx form "question ${HOSTILE_SHOWN}" -> accept {}`);
  });

  it('call --json: the same JSON value, with the bidi override and C1 controls as \\u escapes', async () => {
    const r = await run(
      ['call', '--stdio', tasks, '--name', 'fx', '--tool', 'hostile_text', '--elicit', 'decline', '--json'],
      data,
    );
    expectNoRaw(r);
    const out = JSON.parse(r.stdout);
    expect(out.result.content[0].text).toBe(`result ${HOSTILE} (decline)`);
    expect(out.questions[0].message).toBe(`question ${HOSTILE}`);
    expect(r.stdout).toContain('\\u202e');
  });

  it('a server error quoted in the error line is escaped', async () => {
    const r = await run(['call', '--stdio', tasks, '--name', 'fx', '--tool', 'hostile_failure'], data);
    expectNoRaw(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`countersign: error: .*failure ${escapeRe(HOSTILE_SHOWN)}`));
  });

  it('--elicit ask: the question put to the person is escaped', async () => {
    const r = await run(
      ['call', '--stdio', tasks, '--name', 'fx', '--tool', 'hostile_text', '--elicit', 'ask'],
      data,
      'accept',
    );
    expectNoRaw(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`[ASK] fx asks (tools/call hostile_text): question ${HOSTILE_SHOWN}`);
    expect(r.stderr).toContain(`[ASK] task ${ID_SHOWN}… of hostile_text`);
  });

  it('task list, plain and --json, shows the stored ids and messages escaped', async () => {
    const r = await run(['task', 'list'], data);
    expectNoRaw(r);
    expect(r.stdout).toContain(`${ID_SHOWN}`);
    expect(r.stdout).toMatch(/completed \(ended\)/);
    const json = await run(['task', 'list', '--json'], data);
    expectNoRaw(json);
    const ids = (JSON.parse(json.stdout) as Array<{ taskId: string }>).map((t) => t.taskId);
    expect(ids.some((id) => id.startsWith(HOSTILE_ID))).toBe(true);
  });

  it('history, plain and --json, shows what the server said escaped', async () => {
    const r = await run(['history'], data);
    expectNoRaw(r);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`task ${ID_SHOWN}…`);
    expect(r.stdout).toContain(`status ${HOSTILE_SHOWN}`);
    const json = await run(['history', '--json'], data);
    expectNoRaw(json);
    const items = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message?: string });
    expect(items.some((i) => i.type === 'question' && i.message === `question ${HOSTILE}`)).toBe(true);
    const exported = await run(['history', 'export'], data);
    expectNoRaw(exported);
    expect(exported.stdout).toContain('\\u202e');
  });
});

describe('file-controlled text through the real CLI', () => {
  it("a server name from servers.json in the gateway's stderr is escaped", async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-term-gw-'));
    writeFileSync(
      join(data, 'servers.json'),
      JSON.stringify({ mcpServers: { [`name ${HOSTILE}`]: { command: 'true' } } }),
      { mode: 0o600 },
    );
    const bin = startBin(['gateway', '--no-start-app'], data);
    await until(bin, () => /serving|error/.test(bin.stderr()));
    bin.child.stdin.end();
    bin.child.kill('SIGTERM');
    await bin.exited;
    expectNoRaw({ stdout: bin.stdout(), stderr: bin.stderr() });
    // Named in the error (the config reader quotes it as JSON: \u001b), escaped either way.
    expect(bin.stderr()).toMatch(/name \\u001b\[2J\\u001b\]0;pwned\\u0007 evil\\u202etxt\.exe/);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
