// Turns script text into cases of steps, or one error naming file, line and
// column. Pure (the caller reads the file). Every check that can be made
// without a server is made here, so a typo fails before anything is spawned.
import type { AnswerContent } from '../../../shared/elicitation/types';
import type { ElicitSpec } from '../elicit-spec';
import { LexError, lexLine, parseJsonPart, type Word } from './lexer';
import {
  FIELD_TYPES,
  HOST_ERROR_CODES,
  STEP_USAGE,
  type FieldType,
  type Script,
  type ScriptCase,
  type Step,
  type StepBody,
} from './steps';

/** A script that cannot run, with where. `message` reads `file:line:col: what`. */
export class ScriptSyntaxError extends Error {
  override readonly name = 'ScriptSyntaxError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${col}: ${reason}`);
  }
}

/** Parse a whole script. Throws ScriptSyntaxError on the first problem. */
export function parseScript(text: string, file: string): Script {
  const cases: ScriptCase[] = [];
  let current: ScriptCase | undefined;
  let pendingName: string | undefined;
  let number = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    const trimmed = raw.trim();
    if (trimmed === '') {
      // A blank line ends a case (several in a row are one separator).
      current = undefined;
      pendingName = undefined;
      continue;
    }
    if (trimmed.startsWith('#')) {
      if (!current && pendingName === undefined) pendingName = trimmed.replace(/^#+\s*/, '');
      continue;
    }
    let words: Word[];
    try {
      words = stripComment(lexLine(raw, lineNo));
    } catch (e) {
      if (e instanceof LexError) throw new ScriptSyntaxError(file, e.line, e.col, e.message);
      throw e;
    }
    if (words.length === 0) continue;
    if (!current) {
      current = {
        index: cases.length + 1,
        name: pendingName || `case ${cases.length + 1}`,
        line: lineNo,
        steps: [],
      };
      cases.push(current);
      pendingName = undefined;
    }
    number += 1;
    let body: StepBody;
    try {
      body = parseStep(words, raw.length + 1);
    } catch (e) {
      if (e instanceof LexError) throw new ScriptSyntaxError(file, e.line, e.col, e.message);
      throw e;
    }
    const source = raw.slice(words[0]!.col - 1, words[words.length - 1]!.end - 1);
    current.steps.push({ ...body, number, line: lineNo, col: words[0]!.col, source });
  }
  if (cases.length === 0) throw new ScriptSyntaxError(file, 1, 1, 'the script has no steps');
  return { file, cases };
}

/** A bare word starting with `#` begins a trailing comment. */
function stripComment(words: Word[]): Word[] {
  const at = words.findIndex((w) => w.parts[0]?.kind === 'bare' && w.parts[0].text.startsWith('#'));
  return at < 0 ? words : words.slice(0, at);
}

type Args = { name: Word; rest: Word[]; lineEnd: number };

function fail(word: Word | { line: number; col: number }, message: string): never {
  throw new LexError(message, word.line, word.col);
}

/** The argument at `index`, or a "missing argument" error pointing just past the line. */
function need(args: Args, index: number, what: string): Word {
  const word = args.rest[index];
  if (word) return word;
  fail(
    { line: args.name.line, col: args.lineEnd },
    `${args.name.text}: missing argument ${what} (usage: ${STEP_USAGE[args.name.text]})`,
  );
}

function noMore(args: Args, allowed: number): void {
  const extra = args.rest[allowed];
  if (extra)
    fail(
      extra,
      `${args.name.text}: unexpected argument ${JSON.stringify(extra.text)} (usage: ${STEP_USAGE[args.name.text]})`,
    );
}

function count(word: Word, step: string): number {
  if (!/^\d+$/.test(word.text) || word.parts.some((p) => p.kind !== 'bare'))
    fail(word, `${step}: expected a whole number, not ${JSON.stringify(word.text)}`);
  return Number(word.text);
}

/** JSON written as one word (a bare value, a quoted string, a span or '...'). */
function jsonWord(word: Word, what: string): unknown {
  if (word.parts.length !== 1) fail(word, `${what}: write the JSON as one value, e.g. '{"a": 1}'`);
  return parseJsonPart(word.parts[0]!, word.line, what);
}

function jsonObject(word: Word, what: string): Record<string, unknown> {
  const value = jsonWord(word, what);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(word, `${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function parseStep(words: Word[], lineEnd: number): StepBody {
  const name = words[0]!;
  const args: Args = { name, rest: words.slice(1), lineEnd };
  if (name.parts.length !== 1 || name.parts[0]!.kind !== 'bare' || !(name.text in STEP_USAGE)) {
    fail(name, `unknown step ${JSON.stringify(name.text)} (steps: ${Object.keys(STEP_USAGE).join(', ')})`);
  }
  switch (name.text) {
    case 'elicit_response':
      return { kind: 'elicit_response', spec: elicitSpec(args) };
    case 'call_tool':
    case 'call_prompt': {
      const target = need(args, 0, '<name>');
      const callArgs = callArguments(args.rest.slice(1), name.text);
      return {
        kind: 'call',
        method: name.text === 'call_tool' ? 'tools/call' : 'prompts/get',
        name: target.text,
        ...(callArgs ? { arguments: callArgs } : {}),
      };
    }
    case 'read_resource': {
      const uri = need(args, 0, '<uri>');
      noMore(args, 1);
      return { kind: 'call', method: 'resources/read', name: uri.text };
    }
    case 'assert_elicited':
    case 'assert_contains':
    case 'assert_not_contains': {
      const text = need(args, 0, '"<text>"');
      noMore(args, 1);
      return { kind: name.text, text: text.text };
    }
    case 'assert_not_elicited': {
      noMore(args, 1);
      return args.rest[0] ? { kind: 'assert_not_elicited', text: args.rest[0].text } : { kind: 'assert_not_elicited' };
    }
    case 'assert_questions':
    case 'assert_rounds': {
      const n = need(args, 0, '<n>');
      noMore(args, 1);
      return { kind: name.text, count: count(n, name.text) };
    }
    case 'assert_mode': {
      const mode = need(args, 0, 'form|url');
      noMore(args, 1);
      if (mode.text !== 'form' && mode.text !== 'url')
        fail(mode, `assert_mode: expected form or url, not ${JSON.stringify(mode.text)}`);
      return { kind: 'assert_mode', mode: mode.text };
    }
    case 'assert_url_host': {
      const host = need(args, 0, '<host>');
      noMore(args, 1);
      return { kind: 'assert_url_host', host: host.text };
    }
    case 'assert_field': {
      const field = need(args, 0, '<name>');
      noMore(args, 2);
      const type = args.rest[1];
      if (type && !(FIELD_TYPES as readonly string[]).includes(type.text))
        fail(type, `assert_field: unknown type ${JSON.stringify(type.text)} (types: ${FIELD_TYPES.join(', ')})`);
      return type
        ? { kind: 'assert_field', field: field.text, type: type.text as FieldType }
        : { kind: 'assert_field', field: field.text };
    }
    case 'assert_default': {
      const field = need(args, 0, '<field>');
      const value = need(args, 1, '<json>');
      noMore(args, 2);
      return { kind: 'assert_default', field: field.text, value: jsonWord(value, 'assert_default value') };
    }
    case 'assert_is_error':
    case 'assert_not_error':
      noMore(args, 0);
      return { kind: name.text };
    case 'assert_host_error': {
      const code = need(args, 0, '<code>');
      noMore(args, 1);
      if (!(HOST_ERROR_CODES as readonly string[]).includes(code.text))
        fail(
          code,
          `assert_host_error: unknown code ${JSON.stringify(code.text)} (codes: ${HOST_ERROR_CODES.join(', ')})`,
        );
      return { kind: 'assert_host_error', code: code.text as (typeof HOST_ERROR_CODES)[number] };
    }
  }
  /* c8 ignore next */
  fail(name, `unknown step ${JSON.stringify(name.text)}`);
}

/** `accept [json]`, `accept:<json>`, `accept-defaults`, `decline`, `cancel`: the specs of `call --elicit`. */
function elicitSpec(args: Args): ElicitSpec {
  const word = need(args, 0, 'accept|accept-defaults|decline|cancel');
  const first = word.parts[0]!;
  // `accept:{...}` / `accept:'{...}'`, as `--elicit` writes it.
  if (first.kind === 'bare' && first.text === 'accept:' && word.parts.length === 2) {
    noMore(args, 1);
    return { kind: 'accept-content', content: answerContent(word.parts[1]!, word) };
  }
  const spec = word.text;
  if (spec !== 'accept' && spec !== 'accept-defaults' && spec !== 'decline' && spec !== 'cancel')
    fail(word, `elicit_response: expected accept, accept-defaults, decline or cancel, not ${JSON.stringify(spec)}`);
  const content = args.rest[1];
  if (!content) return { kind: spec };
  if (spec !== 'accept') fail(content, `elicit_response: only accept takes content, not ${spec}`);
  noMore(args, 2);
  if (content.parts.length !== 1) fail(content, `elicit_response: write the content as one JSON object`);
  return { kind: 'accept-content', content: answerContent(content.parts[0]!, content) };
}

function answerContent(part: Word['parts'][number], word: Word): AnswerContent {
  const value = parseJsonPart(part, word.line, 'elicit_response content');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(word, 'elicit_response content must be a JSON object');
  return value as AnswerContent;
}

/** `key:value ...` (values JSON or bare words), one JSON object, or `--args <json object>`. */
function callArguments(words: Word[], step: string): Record<string, unknown> | undefined {
  if (words.length === 0) return undefined;
  if (words[0]!.text === '--args' && words[0]!.parts[0]!.kind === 'bare') {
    const json = words[1];
    if (!json) fail({ line: words[0]!.line, col: words[0]!.col }, `${step}: --args needs a JSON object`);
    if (words[2]) fail(words[2], `${step}: unexpected argument after --args`);
    return jsonObject(json, `${step} --args`);
  }
  const only = words[0]!;
  const firstPart = only.parts[0]!;
  if (
    words.length === 1 &&
    only.parts.length === 1 &&
    (firstPart.kind === 'json' || firstPart.kind === 'single') &&
    firstPart.text.trimStart().startsWith('{')
  ) {
    return jsonObject(only, `${step} arguments`);
  }
  const out: Record<string, unknown> = {};
  for (const word of words) {
    const head = word.parts[0]!;
    const colon = head.kind === 'bare' ? head.text.indexOf(':') : -1;
    if (colon <= 0) fail(word, `${step}: expected key:value, not ${JSON.stringify(word.text)}`);
    const key = head.text.slice(0, colon);
    if (Object.prototype.hasOwnProperty.call(out, key))
      fail(word, `${step}: argument ${JSON.stringify(key)} given twice`);
    const restOfHead = head.text.slice(colon + 1);
    const valueParts = [
      ...(restOfHead ? [{ kind: 'bare' as const, text: restOfHead, col: head.col + colon + 1 }] : []),
      ...word.parts.slice(1),
    ];
    if (valueParts.length === 0) fail(word, `${step}: no value after ${JSON.stringify(`${key}:`)}`);
    let value: unknown;
    if (valueParts.length === 1 && valueParts[0]!.kind === 'double') value = valueParts[0]!.text;
    else if (valueParts.length === 1 && valueParts[0]!.kind === 'json')
      value = parseJsonPart(valueParts[0]!, word.line, `${step} value of ${key}`);
    else {
      // A bare or single-quoted value is JSON when it parses (4, true, null), else the word itself.
      const textValue = valueParts.map((p) => p.text).join('');
      try {
        value = JSON.parse(textValue);
      } catch {
        value = textValue;
      }
    }
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
