// `--json`: the run as one object, for tools that want more than JUnit.
import { exitCodeOf, tally, type TestReport } from './report';

/** The `--json` document. */
export function jsonReport(report: TestReport): Record<string, unknown> {
  return {
    script: report.script,
    server: report.server,
    eras: report.eras.map((e) => ({
      era: e.era,
      ...(e.run ? { protocolVersion: e.run.protocolVersion } : {}),
      status: e.error || e.run?.sessionError ? 'error' : e.skipped ? 'skipped' : 'ran',
      ...(e.skipped ? { skipped: e.skipped } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...(e.run?.sessionError ? { error: e.run.sessionError } : {}),
      cases: (e.run?.cases ?? []).map((c) => ({
        index: c.case.index,
        name: c.case.name,
        line: c.case.line,
        status: c.outcomes.some((o) => o.status === 'fail' || o.status === 'error') ? 'failed' : 'passed',
        durationMs: Math.round(c.durationMs),
        steps: c.outcomes.map((o) => ({
          number: o.step.number,
          line: o.step.line,
          step: o.step.source,
          status: o.status,
          ...(o.expected !== undefined ? { expected: o.expected } : {}),
          ...(o.seen !== undefined ? { seen: o.seen } : {}),
          ...(o.note !== undefined ? { note: o.note } : {}),
        })),
      })),
    })),
    ...tally(report),
    exitCode: exitCodeOf(report),
  };
}
