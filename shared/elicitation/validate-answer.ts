// Checks an answer against the schema before it goes back to the server (the
// spec says clients SHOULD), with messages a human can act on. The same rules
// run in the renderer, the core and the CLI, so all three refuse the same input.

import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { STRING_FORMATS } from './schema-rules';
import type { FieldProblem, FlatSchema, PrimitiveSchema } from './types';

/** Outcome of validating an answer: fine, or one or more problems naming the field. */
export type AnswerCheck = { ok: true } | { ok: false; errors: FieldProblem[] };

// One Ajv for the whole process: building it and its formats is the slow part.
// verbose: errors carry the offending value, used to name a bad choice.
let ajv: Ajv2020 | undefined;
function getAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
    addFormats(ajv, [...STRING_FORMATS]);
  }
  return ajv;
}

// Compiled validators keyed by the schema's JSON text, so a question that comes
// back each round reuses its validator. Bounded, because Ajv itself would keep
// every schema object it ever saw for the life of a long-running host.
const MAX_CACHED = 64;
const cache = new Map<string, ValidateFunction>();

function compiled(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-insert: Map order doubles as least-recently-used order
    cache.set(key, hit);
    return hit;
  }
  const a = getAjv();
  const fn = a.compile(schema);
  a.removeSchema(schema);
  cache.set(key, fn);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return fn;
}

/** Validates accepted content against a (checked) flat schema; every problem names its field. */
export function validateAnswer(schema: FlatSchema, content: unknown): AnswerCheck {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return {
      ok: false,
      errors: [{ field: '', message: 'The answer must be an object mapping field names to values.' }],
    };
  }

  const errors: FieldProblem[] = [];
  const known: Record<string, unknown> = {};
  // Our own checks first: they catch what Ajv would word poorly (extra keys,
  // objects, null, NaN) and keep such fields out of Ajv's report.
  for (const field of Object.keys(content)) {
    const value = (content as Record<string, unknown>)[field];
    if (!Object.hasOwn(schema.properties, field)) {
      errors.push({ field, message: `"${field}" is not a field of this form.` });
    } else if (!isAnswerValue(value)) {
      errors.push({
        field,
        message:
          `${label(schema, field)} has a value answers cannot carry (only text, numbers, ` +
          'true/false or a list of text are allowed).',
      });
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      errors.push({ field, message: `${label(schema, field)} must be a finite number.` });
    } else {
      Object.defineProperty(known, field, { value, enumerable: true, writable: true, configurable: true });
    }
  }

  let validate: ValidateFunction;
  try {
    validate = compiled(toAjvSchema(schema));
  } catch (e) {
    // Only reachable with a schema that skipped checkFlatSchema.
    errors.push({ field: '', message: `The form's schema cannot be used for validation: ${(e as Error).message}` });
    return { ok: false, errors };
  }

  const flagged = new Set(errors.map((e) => e.field));
  if (!validate(known)) {
    for (const err of validate.errors ?? []) {
      const problem = describeError(schema, err);
      if (flagged.has(problem.field)) continue;
      if (!errors.some((e) => e.field === problem.field && e.message === problem.message)) errors.push(problem);
    }
  }
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function isAnswerValue(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}

// The validation view of the schema: titles and legacy spellings dropped,
// every kind of choice list folded into a plain `enum` so errors are one line.
function toAjvSchema(schema: FlatSchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties)) {
    properties[name] = propertyForAjv(p);
  }
  const out: Record<string, unknown> = { type: 'object', properties, additionalProperties: false };
  if (schema.required && schema.required.length > 0) out.required = [...schema.required];
  return out;
}

function propertyForAjv(p: PrimitiveSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { type: p.type };
  const copy = (key: keyof PrimitiveSchema) => {
    if (p[key] !== undefined) out[key] = p[key];
  };
  switch (p.type) {
    case 'string': {
      copy('minLength');
      copy('maxLength');
      copy('format');
      const options = p.enum ?? p.oneOf?.map((c) => c.const);
      if (options) out.enum = [...options];
      break;
    }
    case 'number':
    case 'integer':
      copy('minimum');
      copy('maximum');
      break;
    case 'array': {
      const options = p.items?.enum ?? p.items?.anyOf?.map((c) => c.const);
      out.items = options ? { type: 'string', enum: [...options] } : { type: 'string' };
      // Picking a choice twice is meaningless; the form draws checkboxes, which cannot.
      out.uniqueItems = true;
      copy('minItems');
      copy('maxItems');
      break;
    }
  }
  return out;
}

function label(schema: FlatSchema, field: string): string {
  const title = Object.hasOwn(schema.properties, field) ? schema.properties[field]?.title : undefined;
  return `"${title && title.trim() ? title.trim() : field}"`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listChoices(values: readonly unknown[]): string {
  const shown = values.slice(0, 10).map((v) => JSON.stringify(v));
  return values.length > 10 ? `${shown.join(', ')}, …` : shown.join(', ');
}

const FORMAT_TEXT: Record<string, string> = {
  email: 'must be an email address, such as name@example.com',
  uri: 'must be a full URI, such as https://example.com/',
  date: 'must be a date in the form YYYY-MM-DD',
  'date-time': 'must be a date and time with a time zone, such as 2025-01-31T14:30:00Z',
};

const TYPE_TEXT: Record<string, string> = {
  string: 'must be text',
  number: 'must be a number',
  integer: 'must be a whole number',
  boolean: 'must be true or false',
  array: 'must be a list of choices',
  object: 'must be an object',
};

function describeError(schema: FlatSchema, err: ErrorObject): FieldProblem {
  const segments = err.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = err.params as Record<string, unknown>;
  const field = err.keyword === 'required' ? String(params.missingProperty) : (segments[0] ?? '');
  const inItem = segments.length > 1;
  const L = label(schema, field);
  const n = typeof params.limit === 'number' ? params.limit : 0;
  let message: string;
  switch (err.keyword) {
    case 'required':
      message = `${L} is required.`;
      break;
    case 'type':
      message = inItem
        ? `${L} may only contain text choices.`
        : `${L} ${TYPE_TEXT[String(params.type)] ?? `must be of type ${String(params.type)}`}.`;
      break;
    case 'minLength':
      message = `${L} must be at least ${plural(n, 'character', 'characters')} long.`;
      break;
    case 'maxLength':
      message = `${L} must be at most ${plural(n, 'character', 'characters')} long.`;
      break;
    case 'format':
      message = `${L} ${FORMAT_TEXT[String(params.format)] ?? `must match the format ${String(params.format)}`}.`;
      break;
    case 'minimum':
      message = `${L} must be at least ${n}.`;
      break;
    case 'maximum':
      message = `${L} must be at most ${n}.`;
      break;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      message = inItem
        ? `${L} contains ${JSON.stringify(err.data)}, which is not one of the choices.`
        : `${L} must be one of: ${listChoices(allowed)}.`;
      break;
    }
    case 'minItems':
      message = `${L} needs at least ${plural(n, 'choice', 'choices')}.`;
      break;
    case 'maxItems':
      message = `${L} allows at most ${plural(n, 'choice', 'choices')}.`;
      break;
    case 'uniqueItems':
      message = `${L} lists the same choice more than once.`;
      break;
    case 'additionalProperties':
      return {
        field: String(params.additionalProperty),
        message: `"${String(params.additionalProperty)}" is not a field of this form.`,
      };
    default:
      message = `${L} is not valid: ${err.message ?? err.keyword}.`;
  }
  return { field, message };
}
