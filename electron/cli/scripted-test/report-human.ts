// The terminal report: one line per step (number, pass/FAIL, on failure what
// was expected and what was seen, and the era), ending with the
// `N passed, N failed` line CI logs are grepped for.
import type { StepOutcome } from './runner';
import { tally, type TestReport } from './report';
import { LINE_MAX, terminalText } from '../../../shared/terminal-text';

const LABEL: Record<StepOutcome['status'], string> = {
  pass: 'pass',
  fail: 'FAIL',
  error: 'ERROR',
  skipped: 'skip',
};

// The script's text, what a server answered and its errors are all quoted here: each is shown escaped.
const shown = (s: string) => terminalText(s, { max: LINE_MAX });

/** The header of one era's block. */
export function eraHeading(era: 'modern' | 'legacy', protocolVersion: string): string {
  return `${era} (${shown(protocolVersion)})`;
}

/** One step's line. */
export function stepLine(o: StepOutcome): string {
  const head = `  ${String(o.step.number).padStart(3)} ${LABEL[o.status].padEnd(5)} ${shown(o.step.source)}`;
  if (o.status === 'fail' || o.status === 'error')
    return `${head}\n        [${o.era}] expected ${shown(o.expected ?? '?')}; seen ${shown(o.seen ?? '?')}`;
  return o.note ? `${head}  (${shown(o.note)})` : head;
}

/** The closing lines: eras skipped, failures by era, then `N passed, N failed`. */
export function summaryLines(report: TestReport): string[] {
  const lines: string[] = [];
  for (const e of report.eras) {
    if (e.skipped) lines.push(`${e.era}: not run: ${shown(e.skipped)}`);
    if (e.error) lines.push(`${e.era}: error: ${shown(e.error)}`);
    if (e.run?.sessionError) lines.push(`${e.era}: session failed: ${shown(e.run.sessionError)}`);
    const failed = e.run?.cases.flatMap((c) => c.outcomes.filter((o) => o.status === 'fail' || o.status === 'error'));
    if (failed && failed.length > 0)
      lines.push(`${e.era}: failed step(s) ${failed.map((o) => `${o.step.number} (line ${o.step.line})`).join(', ')}`);
  }
  const t = tally(report);
  if (t.notRun > 0) lines.push(`${t.notRun} not run`);
  lines.push(`${t.passed} passed, ${t.failed} failed`);
  return lines;
}
