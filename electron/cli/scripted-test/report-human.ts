// The terminal report: one line per step (number, pass/FAIL, on failure what
// was expected and what was seen, and the era), ending with the
// `N passed, N failed` line CI logs are grepped for.
import type { StepOutcome } from './runner';
import { tally, type TestReport } from './report';

const LABEL: Record<StepOutcome['status'], string> = {
  pass: 'pass',
  fail: 'FAIL',
  error: 'ERROR',
  skipped: 'skip',
};

/** The header of one era's block. */
export function eraHeading(era: 'modern' | 'legacy', protocolVersion: string): string {
  return `${era} (${protocolVersion})`;
}

/** One step's line. */
export function stepLine(o: StepOutcome): string {
  const head = `  ${String(o.step.number).padStart(3)} ${LABEL[o.status].padEnd(5)} ${o.step.source}`;
  if (o.status === 'fail' || o.status === 'error')
    return `${head}\n        [${o.era}] expected ${o.expected ?? '?'}; seen ${o.seen ?? '?'}`;
  return o.note ? `${head}  (${o.note})` : head;
}

/** The closing lines: eras skipped, failures by era, then `N passed, N failed`. */
export function summaryLines(report: TestReport): string[] {
  const lines: string[] = [];
  for (const e of report.eras) {
    if (e.skipped) lines.push(`${e.era}: not run: ${e.skipped}`);
    if (e.error) lines.push(`${e.era}: error: ${e.error}`);
    if (e.run?.sessionError) lines.push(`${e.era}: session failed: ${e.run.sessionError}`);
    const failed = e.run?.cases.flatMap((c) => c.outcomes.filter((o) => o.status === 'fail' || o.status === 'error'));
    if (failed && failed.length > 0)
      lines.push(`${e.era}: failed step(s) ${failed.map((o) => `${o.step.number} (line ${o.step.line})`).join(', ')}`);
  }
  const t = tally(report);
  if (t.notRun > 0) lines.push(`${t.notRun} not run`);
  lines.push(`${t.passed} passed, ${t.failed} failed`);
  return lines;
}
