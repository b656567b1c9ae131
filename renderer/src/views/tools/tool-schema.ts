// How a tool's arguments are entered. A tool's inputSchema is general JSON
// Schema, but the form theme draws the flat elicitation subset only (one
// level of text, number, boolean, choice and multi-choice fields). Schemas
// inside that subset become a form; anything else (nested objects, free
// arrays, $ref, combinators, type unions) is edited as JSON, never half-drawn.
// Pure: no React.
import type { UiSchema } from '@rjsf/utils';
import type { FormSchema } from '../../../../shared/elicitation/for-form';
import { buildUiSchema } from '../../forms/ui-schema';
import { vouchedAs } from '../../../../shared/vouched-as';

type Json = Record<string, unknown>;

/** How the arguments are entered. */
export type ArgsPlan =
  { kind: 'none' } | { kind: 'form'; schema: FormSchema; uiSchema: UiSchema } | { kind: 'json'; reason: string };

const ROOT_KEYS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  '$schema',
  '$id',
  'title',
  'description',
  'examples',
]);
const COMMON_KEYS = ['type', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
const STRING_KEYS = new Set([
  ...COMMON_KEYS,
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'enum',
  'oneOf',
  'anyOf',
  'enumNames',
]);
const NUMBER_KEYS = new Set([
  ...COMMON_KEYS,
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);
const BOOLEAN_KEYS = new Set(COMMON_KEYS);
const ARRAY_KEYS = new Set([...COMMON_KEYS, 'items', 'minItems', 'maxItems', 'uniqueItems']);
/** Formats the theme has a widget for; others are drawn as plain text and left to the server to check. */
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function choices(list: unknown): Array<{ const: string; title: string }> | null {
  if (!Array.isArray(list) || list.length === 0) return null;
  const out: Array<{ const: string; title: string }> = [];
  for (const c of list) {
    if (!isObject(c) || typeof c.const !== 'string') return null;
    out.push({ const: c.const, title: typeof c.title === 'string' && c.title ? c.title : c.const });
  }
  return out;
}

function onlyKeys(prop: Json, allowed: Set<string>): string | null {
  for (const key of Object.keys(prop)) if (!allowed.has(key)) return key;
  return null;
}

function strings(list: unknown): string[] | null {
  return Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === 'string') ? list : null;
}

/** One property as the form draws it, or why it cannot be drawn. */
function fieldFor(name: string, prop: unknown): { ok: true; field: Json } | { ok: false; reason: string } {
  const no = (why: string) => ({ ok: false as const, reason: `"${name}" ${why}` });
  if (!isObject(prop)) return no('has no schema object');
  const copy = (keys: Set<string>) =>
    Object.fromEntries(Object.entries(prop).filter(([k]) => keys.has(k) && k !== 'enumNames' && k !== 'anyOf'));
  switch (prop.type) {
    case 'string': {
      const extra = onlyKeys(prop, STRING_KEYS);
      if (extra) return no(`uses "${extra}"`);
      const field = copy(STRING_KEYS);
      if (typeof prop.format === 'string' && !FORMATS.has(prop.format)) delete field.format;
      if (prop.enum !== undefined) {
        const values = strings(prop.enum);
        if (!values) return no('has a non-text choice list');
        const names = strings(prop.enumNames);
        if (names && names.length === values.length) {
          delete field.enum;
          field.oneOf = values.map((v, i) => ({ const: v, title: names[i] || v }));
        }
      } else if (prop.oneOf !== undefined || prop.anyOf !== undefined) {
        const list = choices(prop.oneOf ?? prop.anyOf);
        if (!list) return no('combines schemas');
        field.oneOf = list;
      }
      return { ok: true, field };
    }
    case 'number':
    case 'integer': {
      const extra = onlyKeys(prop, NUMBER_KEYS);
      return extra ? no(`uses "${extra}"`) : { ok: true, field: copy(NUMBER_KEYS) };
    }
    case 'boolean': {
      const extra = onlyKeys(prop, BOOLEAN_KEYS);
      return extra ? no(`uses "${extra}"`) : { ok: true, field: copy(BOOLEAN_KEYS) };
    }
    case 'array': {
      const extra = onlyKeys(prop, ARRAY_KEYS);
      if (extra) return no(`uses "${extra}"`);
      const items = prop.items;
      if (!isObject(items)) return no('is a list without item rules');
      const values = items.type === 'string' || items.type === undefined ? strings(items.enum) : null;
      const list = choices(items.anyOf ?? items.oneOf);
      if (!values && !list) return no('is a list of free values');
      const field = copy(ARRAY_KEYS);
      field.items = values ? { type: 'string', enum: values } : { type: 'string', oneOf: list };
      field.uniqueItems = true;
      return { ok: true, field };
    }
    default:
      return no(prop.type === undefined ? 'has no type' : `has type ${JSON.stringify(prop.type)}`);
  }
}

/** Decides how a tool's arguments are entered: nothing to enter, a form, or JSON (with the reason). */
export function planArgs(inputSchema: unknown): ArgsPlan {
  if (!isObject(inputSchema)) return { kind: 'json', reason: 'the input schema is not an object' };
  if (inputSchema.type !== undefined && inputSchema.type !== 'object')
    return { kind: 'json', reason: `the input is of type ${JSON.stringify(inputSchema.type)}` };
  for (const key of Object.keys(inputSchema)) {
    if (!ROOT_KEYS.has(key)) return { kind: 'json', reason: `the input schema uses "${key}"` };
  }
  const props = inputSchema.properties;
  if (props !== undefined && !isObject(props)) return { kind: 'json', reason: 'its properties are malformed' };
  const entries = Object.entries(props ?? {});
  if (entries.length === 0) {
    return inputSchema.additionalProperties === undefined || inputSchema.additionalProperties === false
      ? { kind: 'none' }
      : { kind: 'json', reason: 'the tool takes free-form arguments' };
  }
  const properties: Record<string, unknown> = {};
  for (const [name, prop] of entries) {
    const drawn = fieldFor(name, prop);
    if (!drawn.ok) return { kind: 'json', reason: drawn.reason };
    Object.defineProperty(properties, name, {
      value: drawn.field,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const required = strings(inputSchema.required)?.filter((r) => Object.hasOwn(properties, r)) ?? [];
  // Every property was drawn by fieldFor, which accepts only what the form schema rules allow.
  const schema = vouchedAs<FormSchema>({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) });
  return { kind: 'form', schema, uiSchema: buildUiSchema(schema) };
}

/** A starting point for the JSON editor: every property with its default, else a placeholder of its type. */
export function skeletonArgs(inputSchema: unknown): Json {
  if (!isObject(inputSchema) || !isObject(inputSchema.properties)) return {};
  const out: Json = {};
  const required = new Set(strings(inputSchema.required) ?? []);
  for (const [name, prop] of Object.entries(inputSchema.properties)) {
    if (!isObject(prop)) continue;
    let value: unknown;
    if (prop.default !== undefined) value = prop.default;
    else if (!required.has(name)) continue;
    else value = placeholder(prop.type);
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function placeholder(type: unknown): unknown {
  switch (Array.isArray(type) ? type[0] : type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

/** Reads the JSON editor: an object, or what is wrong with the text. */
export function parseJsonArgs(
  text: string,
): { ok: true; args: Json } | { ok: false; error: 'syntax' | 'notObject'; detail?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (e) {
    return { ok: false, error: 'syntax', detail: (e as Error).message };
  }
  return isObject(value) ? { ok: true, args: value } : { ok: false, error: 'notObject' };
}

/** Form data as call arguments: only the schema's fields, nothing left empty. */
export function argsFromFormData(schema: FormSchema, data: Json | undefined): Json {
  const out: Json = {};
  for (const name of Object.keys(schema.properties)) {
    const value = data?.[name];
    if (value === undefined || value === '' || (typeof value === 'number' && !Number.isFinite(value))) continue;
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
