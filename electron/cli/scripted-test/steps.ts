// The step model of a `countersign test` script: plain data the parser
// produces and the runner executes. Kept apart from both so the reporters
// and tests can name steps without pulling in either.
import type { CallMethod } from '../../../shared/elicitation/types';
import { HOST_ERROR_CODES } from '../../core/host-error';
import type { ElicitSpec } from '../elicit-spec';

/** Field types `assert_field` knows: the JSON Schema types a flat form may use. */
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What `assert_host_error` may name: the core's HostError codes (`protocol` covers a JSON-RPC error). */
export { HOST_ERROR_CODES };

/** One step's own data; the parser adds where it was written. */
export type StepBody =
  | { kind: 'elicit_response'; spec: ElicitSpec }
  | { kind: 'call'; method: CallMethod; name: string; arguments?: Record<string, unknown> }
  | { kind: 'assert_elicited'; text: string }
  | { kind: 'assert_not_elicited'; text?: string }
  | { kind: 'assert_contains'; text: string }
  | { kind: 'assert_not_contains'; text: string }
  | { kind: 'assert_questions'; count: number }
  | { kind: 'assert_rounds'; count: number }
  | { kind: 'assert_mode'; mode: 'form' | 'url' }
  | { kind: 'assert_url_host'; host: string }
  | { kind: 'assert_field'; field: string; type?: FieldType }
  | { kind: 'assert_default'; field: string; value: unknown }
  | { kind: 'assert_is_error' }
  | { kind: 'assert_not_error' }
  | { kind: 'assert_host_error'; code: (typeof HOST_ERROR_CODES)[number] };

/** A step as written in the script. */
export type Step = StepBody & {
  /** 1-based number over the whole script (what the report prints). */
  number: number;
  line: number;
  col: number;
  /** The step's line as written, trimmed: how reports name it. */
  source: string;
};

/** A group of steps between blank lines; each starts with no queued answers and no last call. */
export interface ScriptCase {
  /** 1-based. */
  index: number;
  /** The case's first comment, else `case <n>`. */
  name: string;
  line: number;
  steps: Step[];
}

/** A parsed script file. */
export interface Script {
  file: string;
  cases: ScriptCase[];
}

/** Usage of each step, for errors and docs; the keys are every step name the parser accepts. */
export const STEP_USAGE: Record<string, string> = {
  elicit_response: 'elicit_response accept|accept-defaults|decline|cancel [<json object>]',
  call_tool: 'call_tool <name> [key:value ...] | call_tool <name> <json object>',
  call_prompt: 'call_prompt <name> [key:value ...] | call_prompt <name> <json object>',
  read_resource: 'read_resource <uri>',
  assert_elicited: 'assert_elicited "<text>"',
  assert_not_elicited: 'assert_not_elicited ["<text>"]',
  assert_contains: 'assert_contains "<text>"',
  assert_not_contains: 'assert_not_contains "<text>"',
  assert_questions: 'assert_questions <n>',
  assert_rounds: 'assert_rounds <n>',
  assert_mode: 'assert_mode form|url',
  assert_url_host: 'assert_url_host <host>',
  assert_field: `assert_field <name> [${FIELD_TYPES.join('|')}]`,
  assert_default: 'assert_default <field> <json>',
  assert_is_error: 'assert_is_error',
  assert_not_error: 'assert_not_error',
  assert_host_error: `assert_host_error ${HOST_ERROR_CODES.join('|')}`,
};
