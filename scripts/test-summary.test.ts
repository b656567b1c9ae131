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
});
