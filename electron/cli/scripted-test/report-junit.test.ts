// The JUnit report must be XML a CI system reads even when a server answers
// with markup, quotes or control characters. Checked with a strict XML 1.0
// parser (saxes), which first proves it rejects what the escaping removes.
import { describe, expect, it } from 'vitest';
import { elementsNamed, parseXmlStrict } from '../../../test/fixtures/strict-xml';
import { parseScript } from './parser';
import type { TestReport } from './report';
import { junitErrorReport, junitReport } from './report-junit';
import { stepLine, summaryLines } from './report-human';
import { jsonReport } from './report-json';
import type { StepOutcome } from './runner';
import { xmlAttr, xmlEscape } from './xml';

const parseXml = parseXmlStrict;

const NASTY = 'a <b> & "c" \'d\' \u0001\u0008\u000b\u001f \ud800 end\ttab\nline ]]> --';

function report(): TestReport {
  const script = parseScript(
    '# first case\nelicit_response accept\ncall_tool deploy service:"<x>"\nassert_contains "ok & done"\n\nassert_rounds 1',
    'scripts/deploy & co.mcp',
  );
  const [c1, c2] = script.cases;
  const outcomes = (era: 'modern' | 'legacy'): StepOutcome[][] => [
    [
      { step: c1!.steps[0]!, era, status: 'pass' },
      { step: c1!.steps[1]!, era, status: 'pass' },
      era === 'legacy'
        ? { step: c1!.steps[2]!, era, status: 'fail', expected: 'a result containing "ok & done"', seen: NASTY }
        : { step: c1!.steps[2]!, era, status: 'pass' },
    ],
    [{ step: c2!.steps[0]!, era, status: era === 'legacy' ? 'error' : 'pass', expected: 'x', seen: 'server gone' }],
  ];
  const run = (era: 'modern' | 'legacy', protocolVersion: string) => ({
    era,
    protocolVersion,
    cases: outcomes(era).map((o, i) => ({ case: script.cases[i]!, outcomes: o, durationMs: 12.5 })),
  });
  return {
    script: script.file,
    server: 'deployer',
    eras: [
      { era: 'modern', run: run('modern', '2026-07-28') },
      { era: 'legacy', run: { ...run('legacy', '2025-11-25'), sessionError: 'server gone' } },
    ],
  };
}

describe('xml escaping', () => {
  it('the strict parser rejects the raw text, accepts the escaped one, and reads back what XML can carry', () => {
    expect(() => parseXml(`<a>${NASTY}</a>`)).toThrow();
    expect(() => parseXml(`<a x="${NASTY}"/>`)).toThrow();
    const doc = parseXml(`<a x="${xmlAttr(NASTY)}">${xmlEscape(NASTY)}</a>`);
    const expected = 'a <b> & "c" \'d\' \ufffd\ufffd\ufffd\ufffd \ufffd end\ttab\nline ]]> --';
    expect(doc.text).toBe(expected);
    expect(doc.attributes.x).toBe(expected);
  });
});

describe('junitReport', () => {
  it('is valid XML with one testcase per case and era, failures and errors where they happened', () => {
    const root = parseXml(junitReport(report()));
    expect(root.name).toBe('testsuites');
    expect([root.attributes.tests, root.attributes.failures, root.attributes.errors]).toEqual(['4', '1', '1']);
    const cases = elementsNamed(root, 'testcase');
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name, c.attributes.line])).toEqual([
      ['deploy & co.mcp.modern', 'first case [modern]', '2'],
      ['deploy & co.mcp.modern', 'case 2 [modern]', '6'],
      ['deploy & co.mcp.legacy', 'first case [legacy]', '2'],
      ['deploy & co.mcp.legacy', 'case 2 [legacy]', '6'],
    ]);
    expect(elementsNamed(cases[0]!, 'failure')).toHaveLength(0);
    const failure = elementsNamed(cases[2]!, 'failure')[0]!;
    expect(failure.attributes.type).toBe('assertion');
    expect(failure.text).toContain('step 3 (line 4) assert_contains "ok & done": expected a result containing');
    expect(failure.text).toContain('a <b> & "c"');
    expect(elementsNamed(cases[3]!, 'error')[0]!.attributes.type).toBe('session');
    const props = elementsNamed(root, 'property').map((p) => `${p.attributes.name}=${p.attributes.value}`);
    expect(props).toEqual([
      'era=modern',
      'protocolVersion=2026-07-28',
      'era=legacy',
      'protocolVersion=2025-11-25',
      'error=server gone',
    ]);
  });

  it('a script that cannot run is one testcase with an error', () => {
    const root = parseXml(junitErrorReport('x.mcp', 'x.mcp:1:3: unknown step "<b>"'));
    const error = elementsNamed(root, 'error')[0]!;
    expect(error.attributes.message).toBe('x.mcp:1:3: unknown step "<b>"');
    expect(root.attributes.errors).toBe('1');
  });
});

describe('human and JSON reports', () => {
  it('one line per step, the era on each failure, and a closing N passed, N failed line', () => {
    const r = report();
    const lines = r.eras.flatMap((e) => e.run!.cases.flatMap((c) => c.outcomes.map(stepLine)));
    expect(lines[0]).toBe('    1 pass  elicit_response accept');
    expect(lines[6]).toMatch(/^ {4}3 FAIL {2}assert_contains "ok & done"\n {8}\[legacy\] expected a result containing/);
    expect(lines[7]).toMatch(/^ {4}4 ERROR assert_rounds 1\n {8}\[legacy\] expected x; seen server gone$/);
    const summary = summaryLines(r);
    expect(summary.at(-1)).toBe('6 passed, 2 failed');
    expect(summary).toContain('legacy: failed step(s) 3 (line 4), 4 (line 6)');
    expect(summary).toContain('legacy: session failed: server gone');
  });

  it('--json carries every step with its era, status and exit code', () => {
    const j = jsonReport(report()) as any;
    expect(j).toMatchObject({ passed: 6, failed: 2, notRun: 0, exitCode: 2, server: 'deployer' });
    expect(j.eras.map((e: any) => [e.era, e.protocolVersion, e.status])).toEqual([
      ['modern', '2026-07-28', 'ran'],
      ['legacy', '2025-11-25', 'error'],
    ]);
    expect(j.eras[1].cases[0].steps[2]).toMatchObject({ number: 3, line: 4, status: 'fail', seen: NASTY });
  });
});
