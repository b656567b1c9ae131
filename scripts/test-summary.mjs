// @ts-check
// Prints the closing "N passed, N failed, N skipped" line of the whole test
// run, preceded by one line per source, from vitest's JSON reports (one per
// run: the machine's Node, then the node project on Node 24) and the
// conformance results. Each failed test is named first (file, test, the first
// line of its error), so the last lines of a CI log say what failed even when
// only they are kept.
//
// Usage: node scripts/test-summary.mjs [--vitest <file> <label>]... [--conformance <file>]
// A vitest report that is missing counts as a failure (its run died before
// writing it); a missing conformance file counts as nothing (that script says why).
import { existsSync, readFileSync } from 'node:fs';

/**
 * @typedef {{ label: string, passed: number, failed: number, skipped: number, note?: string,
 *   failures?: string[] }} Tally
 */

/** At most this many failures are named per run; the count still covers all. */
const MAX_NAMED = 20;

/** One line of a test's text: escapes and control characters dropped (an error may quote anything), cut short. */
function oneLine(/** @type {unknown} */ text, max = 240) {
  const line =
    String(text ?? '')
      .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** The failed tests of a vitest JSON report, one line each: file (relative), test, first line of the error. */
function failuresOf(/** @type {any} */ r) {
  const cwd = `${process.cwd()}/`;
  /** @type {string[]} */
  const out = [];
  for (const file of r.testResults ?? []) {
    const name = String(file.name ?? '?').startsWith(cwd) ? String(file.name).slice(cwd.length) : String(file.name);
    const failed = (file.assertionResults ?? []).filter((/** @type {any} */ a) => a.status === 'failed');
    for (const a of failed) out.push(`${name} > ${oneLine(a.fullName ?? a.title)}: ${oneLine(a.failureMessages?.[0])}`);
    // A file that failed with no failed test in it: it did not load, or a hook failed.
    if (file.status === 'failed' && failed.length === 0) out.push(`${name}: ${oneLine(file.message) || 'failed'}`);
  }
  return out;
}

/** @param {string} file @param {string} label @returns {Tally} */
function vitestTally(file, label) {
  if (!existsSync(file)) return { label, passed: 0, failed: 1, skipped: 0, note: `no results were written to ${file}` };
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return {
    label,
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    failures: failuresOf(r),
  };
}

/** @param {string} file @returns {Tally | undefined} */
function conformanceTally(file) {
  if (!existsSync(file)) return undefined;
  /** @type {Tally & { failures: string[] }} */
  const tally = { label: 'conformance', passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const s of JSON.parse(readFileSync(file, 'utf8')).scenarios ?? []) {
    if (s.status === 'pass') tally.passed += 1;
    else if (s.status === 'expected-fail') tally.skipped += 1;
    else {
      tally.failed += 1;
      tally.failures.push(`${oneLine(s.scenario)} (${oneLine(s.specVersion)}): ${oneLine(s.status)}`);
    }
  }
  return tally;
}

/** @param {string[]} argv @returns {Tally[]} */
function tallies(argv) {
  /** @type {Tally[]} */
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--vitest' && argv[i + 1] && argv[i + 2]) {
      out.push(vitestTally(argv[i + 1], argv[i + 2]));
      i += 2;
    } else if (argv[i] === '--conformance' && argv[i + 1]) {
      const t = conformanceTally(argv[i + 1]);
      if (t) out.push(t);
      i += 1;
    } else {
      throw new Error(`test-summary: unexpected argument ${JSON.stringify(argv[i])} (see the usage at the top)`);
    }
  }
  return out;
}

/** @param {Pick<Tally, 'passed' | 'failed' | 'skipped'>} t */
const counts = (t) => `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;

const all = tallies(process.argv.slice(2));
for (const t of all) {
  const named = t.failures ?? [];
  if (named.length === 0) continue;
  console.log(`failed in ${t.label}:`);
  for (const line of named.slice(0, MAX_NAMED)) console.log(`  ${line}`);
  if (named.length > MAX_NAMED) console.log(`  … and ${named.length - MAX_NAMED} more (see the report)`);
}
const total = { passed: 0, failed: 0, skipped: 0 };
for (const t of all) {
  console.log(`${t.label}: ${t.note ?? counts(t)}`);
  total.passed += t.passed;
  total.failed += t.failed;
  total.skipped += t.skipped;
}
console.log(counts(total));
