// @ts-check
// Prints the closing "N passed, N failed, N skipped" line of the whole test
// run, preceded by one line per source, from vitest's JSON reports (one per
// run: the machine's Node, then the node project on Node 24) and the
// conformance results.
//
// Usage: node scripts/test-summary.mjs [--vitest <file> <label>]... [--conformance <file>]
// A vitest report that is missing counts as a failure (its run died before
// writing it); a missing conformance file counts as nothing (that script says why).
import { existsSync, readFileSync } from 'node:fs';

/** @typedef {{ label: string, passed: number, failed: number, skipped: number, note?: string }} Tally */

/** @param {string} file @param {string} label @returns {Tally} */
function vitestTally(file, label) {
  if (!existsSync(file)) return { label, passed: 0, failed: 1, skipped: 0, note: `no results were written to ${file}` };
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return {
    label,
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  };
}

/** @param {string} file @returns {Tally | undefined} */
function conformanceTally(file) {
  if (!existsSync(file)) return undefined;
  const tally = { label: 'conformance', passed: 0, failed: 0, skipped: 0 };
  for (const s of JSON.parse(readFileSync(file, 'utf8')).scenarios ?? []) {
    if (s.status === 'pass') tally.passed += 1;
    else if (s.status === 'expected-fail') tally.skipped += 1;
    else tally.failed += 1;
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
const total = { passed: 0, failed: 0, skipped: 0 };
for (const t of all) {
  console.log(`${t.label}: ${t.note ?? counts(t)}`);
  total.passed += t.passed;
  total.failed += t.failed;
  total.skipped += t.skipped;
}
console.log(counts(total));
