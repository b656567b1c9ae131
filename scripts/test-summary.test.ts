// The closing line of `npm test` counts every run: the suite on the
// machine's Node, the node project on Node 24 and the conformance scenarios.
// A run on Node 24 that failed, or never wrote its report, is a failure there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = join(dirname(fileURLToPath(import.meta.url)), 'test-summary.mjs');

function summary(args: string[]): string[] {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trim().split('\n');
}

function report(dir: string, name: string, body: object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

describe('test-summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-summary-'));
  const node20 = report(dir, 'node20.json', { numPassedTests: 1500, numFailedTests: 0, numPendingTests: 3 });
  const conformance = report(dir, 'conformance.json', {
    scenarios: [{ status: 'pass' }, { status: 'pass' }, { status: 'expected-fail' }],
  });

  it('names a conformance scenario that failed, with its requirement set', () => {
    const failed = report(dir, 'conformance-failed.json', {
      scenarios: [
        { scenario: 'initialize', specVersion: '2026-07-28', status: 'pass' },
        { scenario: 'sse-retry', specVersion: '2025-11-25', status: 'fail' },
      ],
    });
    expect(summary(['--conformance', failed])).toEqual([
      'failed in conformance:',
      '  sse-retry (2025-11-25): fail',
      'conformance: 1 passed, 1 failed, 0 skipped',
      '1 passed, 1 failed, 0 skipped',
    ]);
  });

  it('adds the node project on Node 24 to the closing line, with a line per run before it', () => {
    const node24 = report(dir, 'node24.json', {
      numPassedTests: 1428,
      numFailedTests: 2,
      numRuntimeErrorTestSuites: 0,
      numPendingTests: 0,
    });
    expect(
      summary([
        ...['--vitest', node20, 'all projects on Node 20.20.2'],
        ...['--vitest', node24, 'node project on Node 24.21.0'],
        ...['--conformance', conformance],
      ]),
    ).toEqual([
      'all projects on Node 20.20.2: 1500 passed, 0 failed, 3 skipped',
      'node project on Node 24.21.0: 1428 passed, 2 failed, 0 skipped',
      'conformance: 2 passed, 0 failed, 1 skipped',
      '2930 passed, 2 failed, 4 skipped',
    ]);
  });

  it('counts a run that wrote no report as failed, and says which', () => {
    const missing = join(dir, 'never-written.json');
    expect(summary(['--vitest', node20, 'all projects', '--vitest', missing, 'node project on Node 24'])).toEqual([
      'all projects: 1500 passed, 0 failed, 3 skipped',
      `node project on Node 24: no results were written to ${missing}`,
      '1500 passed, 1 failed, 3 skipped',
    ]);
  });

  it("names each failed test before the counts, one clean line each, so a log's last lines say what failed", () => {
    const cwd = process.cwd();
    const failing = report(dir, 'failing.json', {
      numPassedTests: 10,
      numFailedTests: 2,
      numRuntimeErrorTestSuites: 1,
      testResults: [
        {
          name: join(cwd, 'test/gateway/http.test.ts'),
          status: 'failed',
          assertionResults: [
            { fullName: 'gateway keeps a call alive', status: 'passed', failureMessages: [] },
            {
              fullName: 'gateway ends a slow call',
              status: 'failed',
              failureMessages: ['\n\u001b[31mError: Test timed out in 30000ms.\u001b[39m\n    at x (y.ts:1:2)'],
            },
            { fullName: 'a\u0007bell', status: 'failed', failureMessages: [`AssertionError: ${'x'.repeat(400)}`] },
          ],
        },
        {
          name: '/elsewhere/broken.test.ts',
          status: 'failed',
          message: 'Cannot find module ./gone',
          assertionResults: [],
        },
        { name: join(cwd, 'ok.test.ts'), status: 'passed', assertionResults: [] },
      ],
    });
    const lines = summary(['--vitest', failing, 'all projects']);
    expect(lines.slice(0, 3)).toEqual([
      'failed in all projects:',
      '  test/gateway/http.test.ts > gateway ends a slow call: Error: Test timed out in 30000ms.',
      `  test/gateway/http.test.ts > a bell: AssertionError: ${'x'.repeat(239 - 'AssertionError: '.length)}…`,
    ]);
    expect(lines.slice(3)).toEqual([
      '  /elsewhere/broken.test.ts: Cannot find module ./gone',
      'all projects: 10 passed, 3 failed, 0 skipped',
      '10 passed, 3 failed, 0 skipped',
    ]);
  });

  it('names at most twenty failures of a run, and says how many more', () => {
    const many = report(dir, 'many.json', {
      numPassedTests: 0,
      numFailedTests: 25,
      testResults: [
        {
          name: 'many.test.ts',
          status: 'failed',
          assertionResults: Array.from({ length: 25 }, (_, i) => ({
            fullName: `case ${i}`,
            status: 'failed',
            failureMessages: ['boom'],
          })),
        },
      ],
    });
    const lines = summary(['--vitest', many, 'all projects']);
    expect(lines.filter((l) => l.startsWith('  many.test.ts > '))).toHaveLength(20);
    expect(lines.slice(-3)).toEqual([
      '  … and 5 more (see the report)',
      'all projects: 0 passed, 25 failed, 0 skipped',
      '0 passed, 25 failed, 0 skipped',
    ]);
  });
});
