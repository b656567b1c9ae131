// The CLI's flags, JSON shape, stderr lines and exit codes are a contract:
// scripts and CI depend on them. Pinned here against the real fixture
// servers, in-process for speed and once as a real process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCommand, fixtureCommandLine } from '../fixtures/spawn-fixture';
import { BIN, runCliIn, startBin } from '../support/cli';

const modern = fixtureCommandLine('modern');
const legacy = fixtureCommandLine('legacy');

async function cli(...argv: string[]) {
  return cliIn(mkdtempSync(join(tmpdir(), 'cs-data-')), ...argv);
}

async function cliIn(dataDir: string, ...argv: string[]) {
  const r = await runCliIn(dataDir, argv);
  return { ...r, stdout: r.stdout.join('\n') };
}

/** bin/countersign.mjs as a real process (async, so several run at once). */
async function runBin(
  argv: string[],
  dataDir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = startBin(argv, dataDir, 'ignore');
  const code = await bin.exited;
  return { code, stdout: bin.stdout(), stderr: bin.stderr() };
}

describe('countersign call', () => {
  it('--json prints one object with era, protocolVersion, questions and result; exit 0', async () => {
    const r = await cli(
      'call',
      '--stdio',
      modern,
      '--tool',
      'confirm_delete',
      '--args',
      '{"entryId":4}',
      '--elicit',
      'accept',
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['era', 'protocolVersion', 'questions', 'result']);
    expect(out.era).toBe('modern');
    expect(out.protocolVersion).toBe('2026-07-28');
    expect(out.questions).toEqual([
      { round: 1, key: 'confirm', mode: 'form', message: 'Delete time entry 4?', action: 'accept', content: {} },
    ]);
    expect(out.result.content[0].text).toBe('deleted entry 4');
    expect(r.stderr).toEqual(['[ELICIT] modern-server.ts form "Delete time entry 4?" -> accept {}']);
  });

  it('answers questions in order and declines once specs run out', async () => {
    const r = await cli(
      'call',
      '--stdio',
      modern,
      '--name',
      'kimai',
      '--tool',
      'two_rounds',
      '--elicit',
      'accept:{"name":"Ada"}',
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.questions.map((q: { round: number; action: string }) => [q.round, q.action])).toEqual([
      [1, 'accept'],
      [2, 'decline'],
    ]);
    expect(out.result.content[0].text).toBe('declined at round 2, nothing was booked for Ada');
    expect(r.stderr[0]).toBe('[ELICIT] kimai form "What name should the booking use?" -> accept {"name":"Ada"}');
    expect(r.stderr[1]).toBe('[ELICIT] kimai form "Book the time for Ada?" -> decline');
  });

  it('reports URL questions with host, warnings and blocked', async () => {
    const r = await cli('call', '--stdio', modern, '--tool', 'connect_account', '--elicit', 'accept', '--json');
    expect(r.code).toBe(0);
    const q = JSON.parse(r.stdout).questions[0];
    expect(q).toMatchObject({
      mode: 'url',
      action: 'accept',
      url: { host: 'example.com', warnings: [], blocked: false },
    });
    expect(q.url.href).toMatch(/^https:\/\/example\.com\/oauth\?state=/);
    expect(q).not.toHaveProperty('content');
  });

  it('exit 1 when the result has isError true', async () => {
    const r = await cli('call', '--stdio', legacy, '--tool', 'needs_auth', '--elicit', 'decline');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('nothing was done');
  });

  it('exit 2 with one clear stderr line on the round limit', async () => {
    const r = await cli('call', '--stdio', modern, '--tool', 'never_stops', '--max-rounds', '2', '--json');
    expect(r.code).toBe(2);
    const last = r.stderr[r.stderr.length - 1]!;
    expect(last).toMatch(/^countersign: error: server "modern-server\.ts" still asked for input after 2 rounds/);
    expect(JSON.parse(r.stdout).error.code).toBe('round-limit');
  });

  it('exit 2 on an invalid schema, an invalid answer and a failed connection', async () => {
    const bad = await cli('call', '--stdio', modern, '--tool', 'bad_schema', '--elicit', 'accept');
    expect(bad.code).toBe(2);
    expect(bad.stderr.at(-1)).toContain('cannot show safely');
    const invalid = await cli('call', '--stdio', modern, '--tool', 'two_rounds', '--elicit', 'accept:{"name":""}');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr.at(-1)).toMatch(/^countersign: error: answer to "name" does not match the form/);
    const down = await cli('call', '--url', 'http://127.0.0.1:9/mcp', '--tool', 'x');
    expect(down.code).toBe(2);
    expect(down.stderr).toHaveLength(1);
    expect(down.stderr[0]).toMatch(/^countersign: error: cannot connect to "127\.0\.0\.1:9"/);
  });

  it('exit 2 on bad flags, naming the flag', async () => {
    expect((await cli('call', '--tool', 'x')).stderr[0]).toContain('give exactly one of --stdio');
    expect((await cli('call', '--stdio', modern, '--tool', 'x', '--args', '[1]')).stderr[0]).toContain(
      '--args must be a JSON object',
    );
    expect((await cli('call', '--stdio', modern, '--tool', 'x', '--elicit', 'yes')).stderr[0]).toContain(
      'expected accept',
    );
    expect((await cli('call', '--stdio', modern, '--tool', 'x', '--max-rounds', '0')).stderr[0]).toContain(
      '--max-rounds must be a whole number',
    );
    expect((await cli('call', '--stdio', modern, '--tool', 'x', '--bogus')).code).toBe(2);
    expect((await cli('frobnicate')).stderr[0]).toContain('unknown command');
  });

  it('--server reads a named server from an mcpServers config file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cs-cfg-'));
    const { command, args } = fixtureCommand('modern');
    writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: { kimai: { command, args } } }));
    const r = await cli(
      'call',
      '--server',
      'kimai',
      '--config',
      join(dir, 'servers.json'),
      '--tool',
      'add_numbers',
      '--args',
      '{"a":2,"b":5}',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The sum of 2 and 5 is 7.');
    const missing = await cli('call', '--server', 'nope', '--config', join(dir, 'servers.json'), '--tool', 'x');
    expect(missing.stderr[0]).toContain('no server named "nope" (configured: kimai)');
  });
});

describe('history from the CLI', () => {
  it('records every question and answer, and history verify checks the chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-data-'));
    expect(
      (
        await cliIn(
          dir,
          'call',
          '--stdio',
          modern,
          '--name',
          'kimai',
          '--tool',
          'confirm_delete',
          '--args',
          '{"entryId":4}',
          '--elicit',
          'decline',
        )
      ).code,
    ).toBe(0);
    expect((await cliIn(dir, 'call', '--stdio', modern, '--name', 'kimai', '--tool', 'bad_schema')).code).toBe(2);
    const listed = await cliIn(dir, 'history', '--json');
    expect(listed.code).toBe(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(rows)).toContain('Delete time entry 4?');
    expect(JSON.stringify(rows)).toContain('decline');
    expect(JSON.stringify(rows)).toContain('invalid-schema');
    const verify = await cliIn(dir, 'history', 'verify');
    expect(verify.code).toBe(0);
  });

  it('has no switch to act without a trace: --no-history is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-data-'));
    const r = await cliIn(
      dir,
      'call',
      '--stdio',
      modern,
      '--tool',
      'add_numbers',
      '--args',
      '{"a":1,"b":2}',
      '--no-history',
    );
    expect(r.code).toBe(2);
    expect(r.stderr.join('\n')).toMatch(/no-history/);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'history', 'journal-000001.jsonl'))).toBe(false);
  });

  it('parallel calls (real processes) on one data folder are all recorded in one verified chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-data-'));
    const runs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => {
        const argv = ['call', '--stdio', modern, '--tool', 'confirm_delete', '--args', `{"entryId":${i}}`];
        return runBin([...argv, '--elicit', 'decline'], dir);
      }),
    );
    for (const r of runs) expect(r.stderr).not.toMatch(/in use by another/);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const verify = await cliIn(dir, 'history', 'verify', '--json');
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true });
    const list = await cliIn(dir, 'history', '--json');
    const rows = list.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; action?: string });
    expect(rows.filter((r) => r.type === 'question' && r.action === 'decline')).toHaveLength(4);
  }, 120_000);
});

describe('countersign exercise', () => {
  it('calls every tool with schema-built arguments and exits 0 even when single tools fail', async () => {
    const r = await cli('exercise', '--stdio', modern, '--json', '--max-rounds', '2');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const byName = Object.fromEntries(out.tools.map((t: { tool: string }) => [t.tool, t]));
    expect(byName.add_numbers).toMatchObject({ arguments: { a: 1, b: 1 }, outcome: 'ok' });
    expect(byName.confirm_delete.outcome).toBe('ok');
    expect(byName.never_stops.outcome).toBe('error');
    expect(byName.bad_schema.outcome).toBe('error');
  });

  it('lists tools, prompts and resources in plain output; a form it cannot fill is skipped, not an error', async () => {
    const r = await cli('exercise', '--stdio', modern, '--max-rounds', '2');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    // two_rounds asks for a required name with no default: nothing invalid is sent, and it says why.
    expect(lines).toContain('[TOOL] two_rounds -> skipped: needs a value for name');
    expect(lines).toContain('[TOOL] add_numbers -> ok');
    expect(lines).toContain('[PROMPT] greeting -> ok');
    expect(lines).toContain('[RESOURCE] fixture://secret-note -> ok');
    const json = JSON.parse((await cli('exercise', '--stdio', modern, '--json', '--max-rounds', '2')).stdout);
    expect(json.tools.find((t: { tool: string }) => t.tool === 'two_rounds')).toMatchObject({
      outcome: 'skipped',
      needs: ['name'],
    });
  });

  it('exits 2 when the session itself fails', async () => {
    const r = await cli('exercise', 'http://127.0.0.1:9/mcp');
    expect(r.code).toBe(2);
  });
});

describe('the installed command', () => {
  it('runs as a real process through bin/countersign.mjs', () => {
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'call',
        '--stdio',
        modern,
        '--tool',
        'confirm_delete',
        '--args',
        '{"entryId":8}',
        '--elicit',
        'decline',
        '--json',
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, COUNTERSIGN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cs-data-')) },
      },
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).result.content[0].text).toBe('declined by the user, nothing was deleted');
    expect(r.stderr.trim()).toBe('[ELICIT] modern-server.ts form "Delete time entry 8?" -> decline');
  });
});
