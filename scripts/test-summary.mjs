// @ts-check
// Prints the closing "N passed, N failed" line of the whole test run from
// vitest's JSON report and the conformance results (when present).
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, conformanceFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
if (vitestFile && existsSync(vitestFile)) {
  const r = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
} else {
  failed += 1;
  console.log('no vitest results were written');
}
if (conformanceFile && existsSync(conformanceFile)) {
  const c = JSON.parse(readFileSync(conformanceFile, 'utf8'));
  for (const s of c.scenarios ?? []) {
    if (s.status === 'pass') passed += 1;
    else if (s.status === 'expected-fail') skipped += 1;
    else failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
