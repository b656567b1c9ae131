// `--junit <file>`: JUnit XML as CI systems read it (Jenkins, GitLab,
// GitHub Actions reporters): one <testsuite> per era, one <testcase> per
// script case and era, a <failure> per failed assertion and an <error> where
// the session failed. The script path and era make each test case's id.
import { basename } from 'node:path';
import { tally, type TestReport } from './report';
import { xmlAttr, xmlEscape } from './xml';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The JUnit document for a run. */
export function junitReport(report: TestReport): string {
  const script = basename(report.script);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skippedTotal = 0;
  let time = 0;
  for (const e of report.eras) {
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteErrors = 0;
    let suiteSkipped = 0;
    let suiteTime = 0;
    for (const c of e.run?.cases ?? []) {
      const failed = c.outcomes.filter((o) => o.status === 'fail');
      const errored = c.outcomes.filter((o) => o.status === 'error');
      const allSkipped = c.outcomes.every((o) => o.status === 'skipped');
      const attrs =
        `classname="${xmlAttr(`${script}.${e.era}`)}" name="${xmlAttr(`${c.case.name} [${e.era}]`)}" ` +
        `file="${xmlAttr(report.script)}" line="${c.case.line}" time="${seconds(c.durationMs)}"`;
      const body: string[] = [];
      for (const o of [...failed, ...errored]) {
        const tag = o.status === 'fail' ? 'failure' : 'error';
        const message =
          `step ${o.step.number} (line ${o.step.line}) ${o.step.source}: ` + `expected ${o.expected}; seen ${o.seen}`;
        body.push(
          `      <${tag} message="${xmlAttr(message)}" ` +
            `type="${o.status === 'fail' ? 'assertion' : 'session'}">${xmlEscape(message)}</${tag}>`,
        );
      }
      if (allSkipped) body.push(`      <skipped message="the session failed before this case"/>`);
      const log = c.outcomes.map((o) => `${o.step.number} ${o.status} ${o.step.source}`).join('\n');
      body.push(`      <system-out>${xmlEscape(log)}</system-out>`);
      cases.push(`    <testcase ${attrs}>\n${body.join('\n')}\n    </testcase>`);
      if (failed.length > 0 && errored.length === 0) suiteFailures += 1;
      if (errored.length > 0) suiteErrors += 1;
      if (allSkipped) suiteSkipped += 1;
      suiteTime += c.durationMs;
    }
    const problem = e.error ?? e.run?.sessionError;
    const props = [
      `      <property name="era" value="${e.era}"/>`,
      ...(e.run ? [`      <property name="protocolVersion" value="${xmlAttr(e.run.protocolVersion)}"/>`] : []),
      ...(e.skipped ? [`      <property name="skipped" value="${xmlAttr(e.skipped)}"/>`] : []),
      ...(problem ? [`      <property name="error" value="${xmlAttr(problem)}"/>`] : []),
    ];
    const n = e.run?.cases.length ?? 0;
    suites.push(
      `  <testsuite name="${xmlAttr(`${script} (${e.era})`)}" tests="${n}" failures="${suiteFailures}" ` +
        `errors="${suiteErrors}" skipped="${suiteSkipped}" time="${seconds(suiteTime)}">\n    ` +
        `<properties>\n${props.join('\n')}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
    tests += n;
    failures += suiteFailures;
    errors += suiteErrors;
    skippedTotal += suiteSkipped;
    time += suiteTime;
  }
  const t = tally(report);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`countersign test ${script}`)}" tests="${tests}" failures="${failures}" ` +
      `errors="${errors}" skipped="${skippedTotal}" time="${seconds(time)}">`,
    `  <!-- steps: ${t.passed} passed, ${t.failed} failed -->`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** A JUnit document for a script that could not run at all (syntax error, no server). */
export function junitErrorReport(script: string, message: string): string {
  const name = basename(script);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`countersign test ${name}`)}" tests="1" failures="0" errors="1">`,
    `  <testsuite name="${xmlAttr(name)}" tests="1" failures="0" errors="1">`,
    `    <testcase classname="${xmlAttr(name)}" name="script" file="${xmlAttr(script)}">`,
    `      <error message="${xmlAttr(message)}" type="script">${xmlEscape(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
