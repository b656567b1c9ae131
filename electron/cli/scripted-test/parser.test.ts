// The script syntax, pure: what each step parses to, and that every broken
// script names file, line and column of its first problem.
import { describe, expect, it } from 'vitest';
import { ScriptSyntaxError, parseScript } from './parser';
import { STEP_USAGE } from './steps';

const SEED = `elicit_response accept '{"environment": "staging", "confirm": true}'
call_tool deploy service:"auth-service"
assert_elicited "Version 2.4.1"
assert_contains "nach staging ausgerollt"

elicit_response decline
call_tool deploy service:"auth-service"
assert_contains "nicht gestartet"
`;

function syntaxError(text: string): ScriptSyntaxError {
  try {
    parseScript(text, 'broken.mcp');
  } catch (e) {
    if (e instanceof ScriptSyntaxError) return e;
    throw e;
  }
  throw new Error('expected a syntax error');
}

describe('parseScript', () => {
  it("parses the seed's deploy script into two cases of seven numbered steps", () => {
    const script = parseScript(SEED, 'deploy.mcp');
    expect(script.cases.map((c) => [c.name, c.line, c.steps.length])).toEqual([
      ['case 1', 1, 4],
      ['case 2', 6, 3],
    ]);
    const steps = script.cases.flatMap((c) => c.steps);
    expect(steps.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(steps[0]).toMatchObject({
      kind: 'elicit_response',
      spec: { kind: 'accept-content', content: { environment: 'staging', confirm: true } },
      source: `elicit_response accept '{"environment": "staging", "confirm": true}'`,
    });
    expect(steps[1]).toMatchObject({
      kind: 'call',
      method: 'tools/call',
      name: 'deploy',
      arguments: { service: 'auth-service' },
    });
    expect(steps[2]).toMatchObject({ kind: 'assert_elicited', text: 'Version 2.4.1' });
    expect(steps[4]).toMatchObject({ kind: 'elicit_response', spec: { kind: 'decline' } });
  });

  it('names a case after its first comment; comments and trailing # do not count as steps', () => {
    const script = parseScript(
      '# Accept deletes\n# more words\ncall_tool echo text:hi # say hi\n\n\n#second\nassert_rounds 0',
      'x',
    );
    expect(script.cases.map((c) => c.name)).toEqual(['Accept deletes', 'second']);
    expect(script.cases[0]!.steps[0]).toMatchObject({ arguments: { text: 'hi' }, source: 'call_tool echo text:hi' });
  });

  it('types key:value arguments: JSON when it parses, else the bare word; quoted means string', () => {
    const [step] = parseScript(
      `call_tool t n:4 f:true s:"4" w:auth-service q:'x y' tags:["a", "b"] o:{"k": [1, 2]} nul:null`,
      'x',
    ).cases[0]!.steps;
    expect(step).toMatchObject({
      arguments: { n: 4, f: true, s: '4', w: 'auth-service', q: 'x y', tags: ['a', 'b'], o: { k: [1, 2] }, nul: null },
    });
  });

  it('accepts --args-style JSON for call_tool and call_prompt', () => {
    const steps = parseScript(
      `call_tool a {"entryId": 5}\ncall_tool b '{"entryId": 6}'\ncall_prompt greeting --args '{"name": "Ada"}'\nread_resource fixture://secret-note`,
      'x',
    ).cases[0]!.steps;
    expect(steps.map((s) => (s.kind === 'call' ? [s.method, s.name, s.arguments] : s.kind))).toEqual([
      ['tools/call', 'a', { entryId: 5 }],
      ['tools/call', 'b', { entryId: 6 }],
      ['prompts/get', 'greeting', { name: 'Ada' }],
      ['resources/read', 'fixture://secret-note', undefined],
    ]);
  });

  it('parses every elicit spec of call --elicit', () => {
    const steps = parseScript(
      `elicit_response accept\nelicit_response accept-defaults\nelicit_response decline\nelicit_response cancel\nelicit_response accept:{"a": 1}\nelicit_response accept {"b": "x y"}`,
      'x',
    ).cases[0]!.steps;
    expect(steps.map((s) => (s.kind === 'elicit_response' ? s.spec : null))).toEqual([
      { kind: 'accept' },
      { kind: 'accept-defaults' },
      { kind: 'decline' },
      { kind: 'cancel' },
      { kind: 'accept-content', content: { a: 1 } },
      { kind: 'accept-content', content: { b: 'x y' } },
    ]);
  });

  it('parses every assertion', () => {
    const text = [
      'assert_elicited "a"',
      'assert_not_elicited',
      'assert_not_elicited "b"',
      'assert_contains "c d"',
      'assert_not_contains e',
      'assert_questions 2',
      'assert_rounds 0',
      'assert_mode url',
      'assert_url_host example.com',
      'assert_field hours number',
      'assert_field day',
      'assert_default tags ["backend"]',
      'assert_default environment "staging"',
      'assert_is_error',
      'assert_not_error',
      'assert_host_error round-limit',
    ].join('\n');
    const steps = parseScript(text, 'x').cases[0]!.steps.map(({ number, line, col, source, ...body }) => body);
    expect(steps).toEqual([
      { kind: 'assert_elicited', text: 'a' },
      { kind: 'assert_not_elicited' },
      { kind: 'assert_not_elicited', text: 'b' },
      { kind: 'assert_contains', text: 'c d' },
      { kind: 'assert_not_contains', text: 'e' },
      { kind: 'assert_questions', count: 2 },
      { kind: 'assert_rounds', count: 0 },
      { kind: 'assert_mode', mode: 'url' },
      { kind: 'assert_url_host', host: 'example.com' },
      { kind: 'assert_field', field: 'hours', type: 'number' },
      { kind: 'assert_field', field: 'day' },
      { kind: 'assert_default', field: 'tags', value: ['backend'] },
      { kind: 'assert_default', field: 'environment', value: 'staging' },
      { kind: 'assert_is_error' },
      { kind: 'assert_not_error' },
      { kind: 'assert_host_error', code: 'round-limit' },
    ]);
    // Every step name the docs list is one this test or the seed test parses.
    expect(Object.keys(STEP_USAGE).sort()).toEqual(
      ['elicit_response', 'call_tool', 'call_prompt', 'read_resource', ...new Set(steps.map((s) => s.kind))].sort(),
    );
  });
});

describe('broken scripts: one error with file:line:col', () => {
  it('an unknown step', () => {
    const e = syntaxError('call_tool echo text:hi\n  assert_contain "hi"');
    expect(e.message).toMatch(/^broken\.mcp:2:3: unknown step "assert_contain" \(steps: elicit_response, call_tool/);
  });

  it('bad JSON, at the column of the bad character (here the "staging" where a colon belongs)', () => {
    expect(syntaxError(`elicit_response accept '{"environment" "staging"}'`).message).toBe(
      `broken.mcp:1:40: elicit_response content is not valid JSON: Expected ':' after property name`,
    );
    expect(syntaxError('\ncall_tool t o:{"a": tru}').message).toBe(
      `broken.mcp:2:24: call_tool value of o is not valid JSON: Unexpected token '}'`,
    );
    expect(syntaxError('assert_default hours 1.5x').message).toMatch(
      /^broken\.mcp:1:25: assert_default value is not valid JSON/,
    );
  });

  it('an unclosed quote or JSON span', () => {
    expect(syntaxError(`call_tool deploy service:"auth-service`).message).toBe(
      'broken.mcp:1:26: unclosed " quote (opened at column 26)',
    );
    expect(syntaxError(`\n\nelicit_response accept '{"a": 1}`).message).toBe(
      "broken.mcp:3:24: unclosed ' quote (opened at column 24)",
    );
    expect(syntaxError('elicit_response accept {"a": [1, 2}').message).toBe('broken.mcp:1:35: unbalanced } in JSON');
    expect(syntaxError('elicit_response accept {"a": 1').message).toBe(
      'broken.mcp:1:24: unclosed { (JSON opened at column 24)',
    );
  });

  it('a missing argument points just past the line and shows the usage', () => {
    expect(syntaxError('call_tool echo\nassert_contains').message).toBe(
      'broken.mcp:2:16: assert_contains: missing argument "<text>" (usage: assert_contains "<text>")',
    );
    expect(syntaxError('call_tool').message).toMatch(/^broken\.mcp:1:10: call_tool: missing argument <name>/);
    expect(syntaxError('assert_default hours').message).toMatch(
      /^broken\.mcp:1:21: assert_default: missing argument <json>/,
    );
  });

  it('wrong values: counts, modes, types, host error codes, specs, extra arguments', () => {
    expect(syntaxError('assert_questions two').message).toBe(
      'broken.mcp:1:18: assert_questions: expected a whole number, not "two"',
    );
    expect(syntaxError('assert_mode link').message).toMatch(/^broken\.mcp:1:13: assert_mode: expected form or url/);
    expect(syntaxError('assert_field hours float').message).toMatch(
      /^broken\.mcp:1:20: assert_field: unknown type "float"/,
    );
    expect(syntaxError('assert_host_error timeout').message).toMatch(
      /^broken\.mcp:1:19: assert_host_error: unknown code "timeout" \(codes: config, connection, round-limit, invalid-schema/,
    );
    expect(syntaxError('elicit_response maybe').message).toMatch(/^broken\.mcp:1:17: elicit_response: expected accept/);
    expect(syntaxError('elicit_response decline {"a": 1}').message).toBe(
      'broken.mcp:1:25: elicit_response: only accept takes content, not decline',
    );
    expect(syntaxError('elicit_response accept [1]').message).toBe(
      'broken.mcp:1:24: elicit_response content must be a JSON object',
    );
    expect(syntaxError('assert_is_error now').message).toMatch(
      /^broken\.mcp:1:17: assert_is_error: unexpected argument "now"/,
    );
    expect(syntaxError('call_tool t a:1 a:2').message).toBe('broken.mcp:1:17: call_tool: argument "a" given twice');
    expect(syntaxError('call_tool t justaword').message).toMatch(/^broken\.mcp:1:13: call_tool: expected key:value/);
  });

  it('an empty script', () => {
    expect(syntaxError('# only a comment\n\n').message).toBe('broken.mcp:1:1: the script has no steps');
  });
});
