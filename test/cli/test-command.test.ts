// `countersign test` against real fixture servers (SDK 2.x, both eras, stdio
// and HTTP; SDK 1.x legacy only): every step kind passing and failing, the
// seed's deploy script, era selection, reports, history, exit codes. In-process
// for speed, and once as a real process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, fixtureCommandLine, startHttpFixture, type HttpFixture } from '../fixtures/spawn-fixture';
import { elementsNamed, parseXmlStrict } from '../fixtures/strict-xml';
import { BIN, runCliIn } from '../support/cli';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const scripts = join(here, 'scripts');
const seedScript = join(repo, 'docs', 'examples', 'deploy.mcp');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const line = (words: string[]) => words.map((w) => JSON.stringify(w)).join(' ');
const modern = fixtureCommandLine('modern');
const legacyOnly = fixtureCommandLine('legacy');
const deployer = line([process.execPath, '--import', tsxLoader, join(repo, 'test/fixtures/servers/deploy-server.ts')]);

const cliIn = (dataDir: string, ...argv: string[]) => runCliIn(dataDir, argv);
const freshDir = () => mkdtempSync(join(tmpdir(), 'cs-test-'));
const cli = (...argv: string[]) => cliIn(freshDir(), ...argv);

function writeScript(text: string, name = 'case.mcp'): string {
  const file = join(freshDir(), name);
  writeFileSync(file, text);
  return file;
}

type JsonStep = { number: number; status: string; expected?: string; seen?: string };
function stepsByEra(json: any): Record<string, JsonStep[]> {
  return Object.fromEntries(json.eras.map((e: any) => [e.era, e.cases.flatMap((c: any) => c.steps)])) as Record<
    string,
    JsonStep[]
  >;
}

describe("the seed's deploy script against the deploy server (seed 000)", () => {
  it('passes all seven steps in both eras, one line per step, and keeps out of the history', async () => {
    const dir = freshDir();
    const junit = join(dir, 'report.xml');
    const r = await cliIn(dir, 'test', '-s', seedScript, '--stdio', deployer, '--junit', junit);
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const seven = [
      `    1 pass  elicit_response accept '{"environment": "staging", "confirm": true}'`,
      '    2 pass  call_tool deploy service:"auth-service"',
      '    3 pass  assert_elicited "Version 2.4.1"',
      '    4 pass  assert_contains "nach staging ausgerollt"',
      '    5 pass  elicit_response decline',
      '    6 pass  call_tool deploy service:"auth-service"',
      '    7 pass  assert_contains "nicht gestartet"',
    ];
    expect(r.stdout).toEqual([
      `countersign test ${seedScript} on deploy-server.ts`,
      'modern (2026-07-28)',
      ...seven,
      'legacy (2025-11-25)',
      ...seven,
      '14 passed, 0 failed',
    ]);
    // No journal was opened: a scripted run is not the human's history.
    expect(existsSync(join(dir, 'history'))).toBe(false);

    const doc = parseXmlStrict(readFileSync(junit, 'utf8'));
    const cases = elementsNamed(doc, 'testcase').map((c) => c.attributes.name);
    expect(cases).toEqual(['case 1 [modern]', 'case 2 [modern]', 'case 1 [legacy]', 'case 2 [legacy]']);
    expect(elementsNamed(doc, 'failure')).toHaveLength(0);
  });

  it('an expectation the server does not meet fails with expected and seen (a real process, exit 1)', () => {
    const script = writeScript(
      `elicit_response accept '{"environment": "production", "confirm": true}'\ncall_tool deploy service:"auth-service"\nassert_contains "nach staging ausgerollt"\n`,
    );
    const r = spawnSync(process.execPath, [BIN, 'test', script, '--stdio', deployer, '--era', 'legacy'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, COUNTERSIGN_DATA_DIR: freshDir() },
    });
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual([
      `countersign test ${script} on deploy-server.ts`,
      'legacy (2025-11-25)',
      `    1 pass  elicit_response accept '{"environment": "production", "confirm": true}'`,
      '    2 pass  call_tool deploy service:"auth-service"',
      '    3 FAIL  assert_contains "nach staging ausgerollt"',
      '        [legacy] expected a result whose text contains "nach staging ausgerollt"; seen result "auth-service 2.4.1 wird nach production ausgerollt."',
      'legacy: failed step(s) 3 (line 3)',
      '2 passed, 1 failed',
    ]);
  });

  it('--history records the run in the journal', async () => {
    const dir = freshDir();
    const r = await cliIn(dir, 'test', seedScript, '--stdio', deployer, '--era', 'modern', '--history');
    expect(r.code).toBe(0);
    const listed = await cliIn(dir, 'history', '--json');
    expect(listed.code).toBe(0);
    const text = listed.stdout.join('\n');
    expect(text).toContain('auth-service in Version 2.4.1 ausrollen');
    expect(text).toContain('"decline"');
  });
});

describe('the example scripts of docs/testing.md', () => {
  it('deploy-more.mcp passes in both eras; wrong-expectation.mcp fails as the page shows', async () => {
    const more = await cli('test', join(repo, 'docs/examples/deploy-more.mcp'), '--stdio', deployer);
    expect(more.stdout.at(-1)).toBe('42 passed, 0 failed');
    expect(more.code).toBe(0);
    const wrong = await cli('test', join(repo, 'docs/examples/wrong-expectation.mcp'), '--stdio', deployer);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout.slice(-3)).toEqual([
      'modern: failed step(s) 3 (line 3)',
      'legacy: failed step(s) 3 (line 3)',
      '4 passed, 2 failed',
    ]);
    expect(wrong.stdout.join('\n')).toContain(
      '    3 FAIL  assert_contains "(decline)"\n        [legacy] expected a result whose text contains "(decline)"; seen result "Deployment nicht gestartet (cancel)."',
    );
  });
});

describe('every step kind against the modern fixture server, in both eras', () => {
  it('passing: exit 0, every step passes in each era', async () => {
    const r = await cli('test', join(scripts, 'every-step-passes.mcp'), '--stdio', modern, '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout.join('\n'));
    expect(json.eras.map((e: any) => [e.era, e.protocolVersion, e.status])).toEqual([
      ['modern', '2026-07-28', 'ran'],
      ['legacy', '2025-11-25', 'ran'],
    ]);
    const byEra = stepsByEra(json);
    for (const era of ['modern', 'legacy']) {
      expect(byEra[era]!.filter((s) => s.status !== 'pass')).toEqual([]);
      expect(byEra[era]).toHaveLength(52);
    }
    expect(json).toMatchObject({ passed: 104, failed: 0, notRun: 0, exitCode: 0 });
  });

  it('failing: exit 1, each assertion and each unexpected call error fails with expected vs seen, per era', async () => {
    const r = await cli('test', join(scripts, 'every-step-fails.mcp'), '--stdio', modern, '--json');
    expect(r.code).toBe(1);
    const byEra = stepsByEra(JSON.parse(r.stdout.join('\n')));
    const failing = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 20, 21, 22, 23];
    for (const era of ['modern', 'legacy']) {
      const steps = byEra[era]!;
      expect(steps.filter((s) => s.status === 'fail').map((s) => s.number)).toEqual(failing);
      expect(steps.filter((s) => s.status === 'pass').map((s) => s.number)).toEqual([1, 2, 14, 15, 19]);
      const step = (n: number) => steps.find((s) => s.number === n)!;
      expect(step(3)).toMatchObject({
        expected: 'a question containing "Delete time entry 5?"',
        seen: '"Delete time entry 4?"',
      });
      expect(step(8).seen).toBe(`1 round(s) (${era})`);
      expect(step(9)).toMatchObject({ expected: 'every question in url mode', seen: 'form' });
      expect(step(10).seen).toBe('no URL question');
      expect(step(16).seen).toContain('hours (number)');
      expect(step(17)).toMatchObject({ expected: 'field hours with default 2', seen: '1.5' });
      expect(step(20).seen).toMatch(/^result "Input validation error: .*" \(isError\)$/);
      expect(step(21).seen).toBe('host error protocol: Prompt no_such_prompt not found');
      expect(step(22).seen).toBe('host error protocol: Resource not found: fixture://no-such-resource');
      expect(step(23)).toMatchObject({ seen: 'no call yet' });
    }
  });

  it('host errors: round-limit and invalid-schema are the host refusing, in the modern era', async () => {
    const r = await cli(
      'test',
      join(scripts, 'host-errors.mcp'),
      '--stdio',
      modern,
      '--era',
      'modern',
      '--max-rounds',
      '3',
    );
    expect(r.stdout.filter((l) => /^ +\d+ /.test(l)).map((l) => l.slice(0, 10))).toEqual([
      '    1 pass',
      '    2 pass',
      '    3 pass',
      '    4 pass',
    ]);
    expect(r.code).toBe(0);
  });

  it('an era where the server behaves differently is caught and named: legacy never reaches the host gate', async () => {
    // Over legacy the SDK's shim ends never_stops itself and the client SDK rejects the nested
    // schema before the host sees it: both come back as isError results, not host errors.
    const r = await cli('test', join(scripts, 'host-errors.mcp'), '--stdio', modern, '--max-rounds', '3');
    expect(r.code).toBe(1);
    const out = r.stdout.join('\n');
    expect(out).toMatch(
      / {4}2 FAIL {2}assert_host_error round-limit\n {8}\[legacy\] expected host error round-limit; seen result ".*" \(isError\)/,
    );
    expect(out).toMatch(
      / {4}4 FAIL {2}assert_host_error invalid-schema\n {8}\[legacy\] expected host error invalid-schema/,
    );
    expect(out).not.toContain('[modern]');
    expect(r.stdout.slice(-2)).toEqual(['legacy: failed step(s) 2 (line 3), 4 (line 7)', '6 passed, 2 failed']);
  });

  it('a blank line starts a case afresh: queued answers do not carry over; unused ones are noted', async () => {
    const script = writeScript(
      'elicit_response accept\n\ncall_tool confirm_delete entryId:3\nassert_contains "declined by the user"\n\n' +
        'elicit_response accept\nelicit_response accept\ncall_tool confirm_delete entryId:3\nassert_contains "deleted entry 3"\n',
    );
    const r = await cli('test', script, '--stdio', modern, '--era', 'modern');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('    6 pass  call_tool confirm_delete entryId:3  (1 queued answer(s) unused)');
  });

  it('an unexpected host error fails the call step itself', async () => {
    const script = writeScript('call_tool bad_schema\nassert_contains "x"\n');
    const r = await cli('test', script, '--stdio', modern, '--era', 'modern', '--json');
    expect(r.code).toBe(1);
    const [call, contains] = stepsByEra(JSON.parse(r.stdout.join('\n'))).modern!;
    expect(call).toMatchObject({ status: 'fail', expected: 'a result (no assert_host_error follows)' });
    expect(call!.seen).toMatch(
      /^host error invalid-schema: server "modern-server.ts" sent a form the host cannot show safely/,
    );
    expect(contains).toMatchObject({ status: 'fail' });
  });
});

describe('eras', () => {
  const simple = () =>
    writeScript(
      'elicit_response decline\ncall_tool confirm_delete entryId:9\nassert_contains "declined by the user"\n',
    );

  it('--server <name> --config <file> picks a configured server; its name is the one reports use', async () => {
    const dir = freshDir();
    const config = join(dir, 'servers.json');
    const { command, args } = fixtureCommand('modern');
    writeFileSync(config, JSON.stringify({ mcpServers: { kimai: { command, args } } }));
    const r = await cliIn(dir, 'test', simple(), '--server', 'kimai', '--config', config, '--era', 'legacy');
    expect(r.code).toBe(0);
    expect(r.stdout.slice(0, 2)).toEqual([expect.stringMatching(/ on kimai$/), 'legacy (2025-11-25)']);
    expect(r.stdout.at(-1)).toBe('3 passed, 0 failed');
    const missing = await cliIn(dir, 'test', simple(), '--server', 'nope', '--config', config);
    expect(missing.code).toBe(2);
    expect(missing.stderr[0]).toContain('no server named "nope"');
  });

  it('a legacy-only server (SDK 1.x) runs in the legacy era by default; modern is reported as not run', async () => {
    const r = await cli('test', simple(), '--stdio', legacyOnly, '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout.join('\n'));
    expect(json.eras.map((e: any) => [e.era, e.status])).toEqual([
      ['modern', 'skipped'],
      ['legacy', 'ran'],
    ]);
    expect(json.eras[0].skipped).toContain('speaks only the legacy protocol');
    expect(json).toMatchObject({ passed: 3, failed: 0 });
  });

  it('--era modern against a legacy-only server is a session failure (exit 2)', async () => {
    const r = await cli('test', simple(), '--stdio', legacyOnly, '--era', 'modern');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('modern: error: legacy-server.ts does not speak 2026-07-28 (it answered as 2025-11-25)');
  });

  it('a 2026-07-28-only server (the deploy server over HTTP refuses initialize) runs in the modern era by default', async () => {
    const child = spawn(
      process.execPath,
      ['--import', tsxLoader, join(repo, 'test/fixtures/servers/deploy-server.ts'), '--http'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (l) => {
          const m = /^LISTENING (\S+)$/.exec(l.trim());
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`deploy server exited early (${code})`)));
      });
      const both = await cli('test', seedScript, '--url', url, '--json');
      expect(both.code).toBe(0);
      const json = JSON.parse(both.stdout.join('\n'));
      expect(json.eras.map((e: any) => [e.era, e.status])).toEqual([
        ['modern', 'ran'],
        ['legacy', 'skipped'],
      ]);
      expect(json.eras[1].skipped).toContain('refused initialize: it speaks only 2026-07-28');
      expect(json).toMatchObject({ passed: 7, failed: 0 });
      const legacy = await cli('test', seedScript, '--url', url, '--era', 'legacy');
      expect(legacy.code).toBe(2);
      expect(legacy.stdout.join('\n')).toContain('does not speak the legacy protocol (initialize was refused');
    } finally {
      child.kill('SIGTERM');
    }
  });

  describe('over HTTP', () => {
    let server: HttpFixture;
    beforeAll(async () => {
      server = await startHttpFixture('modern');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('runs the same script in both eras against a Streamable HTTP server', async () => {
      const r = await cli('test', simple(), '--url', server.url, '--json');
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout.join('\n'));
      expect(json.eras.map((e: any) => [e.era, e.protocolVersion, e.status])).toEqual([
        ['modern', '2026-07-28', 'ran'],
        ['legacy', '2025-11-25', 'ran'],
      ]);
      expect(json).toMatchObject({ passed: 6, failed: 0, exitCode: 0 });
    });
  });
});

describe('scripts and sessions that cannot run: exit 2', () => {
  it('a syntax error names file, line and column before any server starts, and --junit says so', async () => {
    const dir = freshDir();
    const script = writeScript('call_tool echo text:hi\n\nassert_contians "hi"\n', 'broken.mcp');
    const junit = join(dir, 'junit.xml');
    const r = await cliIn(dir, 'test', script, '--stdio', 'no-such-program-anywhere', '--junit', junit);
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual([
      `countersign: error: ${script}:3:1: unknown step "assert_contians" (steps: elicit_response, call_tool, call_prompt, read_resource, assert_elicited, assert_not_elicited, assert_contains, assert_not_contains, assert_questions, assert_rounds, assert_mode, assert_url_host, assert_field, assert_default, assert_is_error, assert_not_error, assert_host_error)`,
    ]);
    const doc = parseXmlStrict(readFileSync(junit, 'utf8'));
    expect(elementsNamed(doc, 'error')[0]!.attributes.message).toContain('broken.mcp:3:1: unknown step');
  });

  it('--json still prints one object when the script cannot run', async () => {
    const script = writeScript('call_tool echo\n  assert_rounds x\n');
    const r = await cli('test', script, '--stdio', modern, '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout.join('\n'))).toEqual({
      script,
      error: {
        code: 'script',
        message: `${script}:2:17: assert_rounds: expected a whole number, not "x"`,
        file: script,
        line: 2,
        col: 17,
      },
      exitCode: 2,
    });
  });

  it('bad JSON, an unclosed quote and a missing argument, through the command', async () => {
    const cases: Array<[string, RegExp]> = [
      [`elicit_response accept '{"confirm": tru}'`, /case\.mcp:1:40: elicit_response content is not valid JSON/],
      [`call_tool deploy service:"auth-service`, /case\.mcp:1:26: unclosed " quote/],
      ['call_tool deploy\nassert_elicited', /case\.mcp:2:16: assert_elicited: missing argument "<text>"/],
    ];
    for (const [text, pattern] of cases) {
      const r = await cli('test', writeScript(text), '--stdio', modern);
      expect(r.code).toBe(2);
      expect(r.stderr.join('\n')).toMatch(pattern);
    }
  });

  it('a server that cannot be started is a session failure', async () => {
    const r = await cli('test', seedScript, '--stdio', line([process.execPath, '-e', 'process.exit(3)']));
    expect(r.code).toBe(2);
    expect(r.stdout.join('\n')).toMatch(
      /modern: error: cannot start "[^"]+": the server exited with code 3 before it answered/,
    );
    expect(r.stdout.at(-1)).toBe('0 passed, 0 failed');
  });

  it('usage errors', async () => {
    expect((await cli('test', '--stdio', modern)).stderr[0]).toContain('give exactly one script');
    expect((await cli('test', seedScript, '-s', seedScript, '--stdio', modern)).stderr[0]).toContain(
      'give exactly one script',
    );
    expect((await cli('test', seedScript, '--stdio', modern, '--era', 'old')).stderr[0]).toContain(
      '--era must be modern, legacy or both',
    );
    expect((await cli('test', join(scripts, 'nope.mcp'), '--stdio', modern)).stderr[0]).toContain('cannot read script');
    const help = await cli('test', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout[0]).toMatch(/^usage: countersign test <script>/);
  });
});
