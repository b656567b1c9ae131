// The result of a whole `countersign test` run, shared by the three
// reporters (human, JSON, JUnit) and the exit code, so they cannot disagree.
import type { EraRun, StepOutcome } from './runner';

/** One era of the run: it ran, was skipped (the server does not speak it), or could not start. */
export interface EraEntry {
  era: 'modern' | 'legacy';
  run?: EraRun;
  /** Why the era did not run although `both` was asked for. */
  skipped?: string;
  /** The session for this era could not be opened (exit 2). */
  error?: string;
}

/** Everything a reporter needs. */
export interface TestReport {
  script: string;
  server: string;
  eras: EraEntry[];
}

/** Counts over every era: `failed` includes steps where the session failed. */
export interface Tally {
  passed: number;
  failed: number;
  notRun: number;
}

/** Every step outcome of a run, era by era. */
export function outcomesOf(report: TestReport): StepOutcome[] {
  return report.eras.flatMap((e) => e.run?.cases.flatMap((c) => c.outcomes) ?? []);
}

/** Count passed, failed and not-run steps. */
export function tally(report: TestReport): Tally {
  const t: Tally = { passed: 0, failed: 0, notRun: 0 };
  for (const o of outcomesOf(report)) {
    if (o.status === 'pass') t.passed += 1;
    else if (o.status === 'skipped') t.notRun += 1;
    else t.failed += 1;
  }
  return t;
}

/** 0: every step passed; 1: an assertion failed; 2: a session failed or an era could not start. */
export function exitCodeOf(report: TestReport): 0 | 1 | 2 {
  if (report.eras.some((e) => e.error !== undefined || e.run?.sessionError !== undefined)) return 2;
  if (report.eras.every((e) => !e.run)) return 2;
  return tally(report).failed > 0 ? 1 : 0;
}
