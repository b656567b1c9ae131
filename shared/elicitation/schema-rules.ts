// Decides whether a server's `requestedSchema` is the flat form the MCP spec
// allows (protocol-notes §3), and returns a clean copy holding only the keys
// the host understands. Everything downstream (form, defaults, validation)
// trusts that copy, so this is the one place that looks at raw server input.
//
// Policy, chosen deliberately:
// - Keywords that would CONSTRAIN the answer beyond the flat subset (pattern,
//   exclusiveMinimum, allOf, nested properties, ...) are refused: we could
//   neither show them to the human nor guarantee the answer satisfies them.
// - Pure annotations that real servers emit (`$schema`, root `title` and
//   `description`, `additionalProperties`, `$comment`, `examples`, `x-*`, ...)
//   are tolerated and dropped: they cannot change which answers are valid.
// - `$ref` (and its dynamic cousins) anywhere is refused: resolving would mean
//   fetching or trusting server-chosen documents, which the spec forbids.

import type { AnswerValue, FlatSchema, PrimitiveSchema, SchemaProblem } from './types';

/** Result of checking a requested schema: a clean copy, or every problem found. */
export type FlatSchemaCheck = { ok: true; schema: FlatSchema } | { ok: false; errors: SchemaProblem[] };

/** String formats the spec allows (and the validator knows). */
export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

// Applicators and object keywords of JSON Schema 2020-12 that constrain an
// answer (a whole form or one field) in ways the flat subset cannot show.
const APPLICATORS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];
const OBJECT_CONSTRAINTS = [
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
];

// Keys that make up the flat form at the root; anything in ROOT_REFUSED is a
// constraint we cannot honour, anything else is an annotation and is dropped
// (a field-only keyword such as `pattern` says nothing about the form itself).
const ROOT_REFUSED = new Set([...APPLICATORS, ...OBJECT_CONSTRAINTS, 'enum', 'const', 'items', 'prefixItems']);

// Constraint keywords of JSON Schema 2020-12. On a property, one of these that
// is not part of that property's kind is refused rather than silently ignored.
const CONSTRAINT_KEYWORDS = new Set([
  ...APPLICATORS,
  ...OBJECT_CONSTRAINTS,
  'prefixItems',
  'items',
  'contains',
  'minContains',
  'maxContains',
  'properties',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'required',
  'const',
  'enum',
  'enumNames',
  'pattern',
  'multipleOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'format',
]);

const REF_KEYWORDS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

// Which constraint keywords each kind of property may carry.
const KIND_KEYWORDS: Record<string, ReadonlySet<string>> = {
  string: new Set(['minLength', 'maxLength', 'format', 'enum', 'enumNames', 'oneOf']),
  number: new Set(['minimum', 'maximum']),
  integer: new Set(['minimum', 'maximum']),
  boolean: new Set([]),
  array: new Set(['items', 'minItems', 'maxItems', 'uniqueItems']),
};

// Guards against hostile or accidental recursion in the raw input.
const MAX_DEPTH = 64;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(obj: Json, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Path segment for a property name: dotted when it reads as an identifier, bracketed otherwise. */
export function propertyPath(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `properties.${name}` : `properties[${JSON.stringify(name)}]`;
}

/** Checks a server's requestedSchema against the flat elicitation subset; returns a clean copy or all problems. */
export function checkFlatSchema(schema: unknown): FlatSchemaCheck {
  const errors: SchemaProblem[] = [];
  const add = (path: string, message: string) => errors.push({ path, message });

  if (!isObject(schema)) {
    add('', 'The schema must be a JSON object.');
    return { ok: false, errors };
  }

  findRefs(schema, '', add, new WeakSet(), 0);

  if (!has(schema, 'type')) add('type', 'The schema must declare type "object".');
  else if (schema.type !== 'object') add('type', `The schema type must be "object", not ${describe(schema.type)}.`);

  for (const key of Object.keys(schema)) {
    if (ROOT_REFUSED.has(key)) add(key, `The keyword "${key}" is not allowed in a flat elicitation schema.`);
  }

  const properties: Record<string, PrimitiveSchema> = {};
  // A missing `properties` is read as a confirm-only question, the same as `{}`:
  // there is nothing to fill in, so nothing can go wrong by being lenient.
  const rawProps = has(schema, 'properties') ? schema.properties : {};
  if (!isObject(rawProps)) {
    add('properties', 'properties must be an object mapping field names to field schemas.');
  } else {
    for (const name of Object.keys(rawProps)) {
      const path = propertyPath(name);
      if (name === '') {
        add(path, 'A field name must not be empty.');
        continue;
      }
      // Answers are plain objects on every side; this key would set a prototype instead.
      if (name === '__proto__') {
        add(path, 'The field name "__proto__" is not allowed.');
        continue;
      }
      const checked = checkProperty(rawProps[name], path, add);
      if (checked) defineOwn(properties, name, checked);
    }
  }

  let required: string[] | undefined;
  if (has(schema, 'required')) {
    const raw = schema.required;
    if (!Array.isArray(raw)) {
      add('required', 'required must be an array of field names.');
    } else {
      required = [];
      raw.forEach((name, i) => {
        if (typeof name !== 'string')
          add(`required[${i}]`, `A required entry must be a field name, not ${describe(name)}.`);
        else if (!isObject(rawProps) || !has(rawProps, name))
          add(`required[${i}]`, `"${name}" is required but is not one of the properties.`);
        // Duplicates are harmless (same meaning), so they are merged, not refused.
        else if (!required!.includes(name)) required!.push(name);
      });
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  const clean: FlatSchema = { type: 'object', properties };
  if (required && required.length > 0) clean.required = required;
  return { ok: true, schema: clean };
}

function defineOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function findRefs(
  value: unknown,
  path: string,
  add: (path: string, message: string) => void,
  seen: WeakSet<object>,
  depth: number,
): void {
  if (typeof value !== 'object' || value === null) return;
  if (seen.has(value)) return;
  seen.add(value);
  if (depth > MAX_DEPTH) {
    add(path, 'The schema is nested too deeply.');
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => findRefs(item, `${path}[${i}]`, add, seen, depth + 1));
    return;
  }
  for (const key of Object.keys(value)) {
    const child = join(path, key);
    if (REF_KEYWORDS.has(key)) {
      add(child, `"${key}" is not allowed: references are never resolved or fetched.`);
      continue;
    }
    findRefs((value as Json)[key], child, add, seen, depth + 1);
  }
}

function join(path: string, key: string): string {
  const seg = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (!path) return seg;
  return seg.startsWith('[') ? `${path}${seg}` : `${path}.${seg}`;
}

function checkProperty(
  raw: unknown,
  path: string,
  outerAdd: (path: string, message: string) => void,
): PrimitiveSchema | null {
  // Any problem inside this field drops the field from the clean copy.
  let clean = true;
  const add = (p: string, m: string) => {
    clean = false;
    outerAdd(p, m);
  };
  if (!isObject(raw)) {
    add(path, 'A field schema must be a JSON object.');
    return null;
  }
  const type = raw.type;
  if (type === 'object' || (isObject(raw.properties) && type === undefined)) {
    add(path, 'Nested objects are not allowed; elicitation schemas are flat.');
    return null;
  }
  if (Array.isArray(type)) {
    add(`${path}.type`, 'type must be a single type name, not a list.');
    return null;
  }
  if (typeof type !== 'string' || !has(KIND_KEYWORDS, type)) {
    add(
      `${path}.type`,
      type === undefined
        ? 'type is required (string, number, integer, boolean or array).'
        : `type ${describe(type)} is not allowed; use string, number, integer, boolean or array.`,
    );
    return null;
  }

  const allowed = KIND_KEYWORDS[type]!;
  for (const key of Object.keys(raw)) {
    if (CONSTRAINT_KEYWORDS.has(key) && !allowed.has(key)) {
      add(`${path}.${key}`, `The keyword "${key}" is not allowed on a ${type} field.`);
    }
  }

  const out: PrimitiveSchema = { type: type as PrimitiveSchema['type'] };
  for (const key of ['title', 'description'] as const) {
    if (!has(raw, key)) continue;
    if (typeof raw[key] === 'string') out[key] = raw[key];
    else add(`${path}.${key}`, `${key} must be a string.`);
  }

  switch (type) {
    case 'string':
      checkString(raw, path, out, add);
      break;
    case 'number':
    case 'integer':
      checkNumber(raw, path, out, type, add);
      break;
    case 'boolean':
      if (has(raw, 'default')) {
        if (typeof raw.default === 'boolean') out.default = raw.default;
        else add(`${path}.default`, `default must be true or false, not ${describe(raw.default)}.`);
      }
      break;
    case 'array':
      checkArray(raw, path, out, add);
      break;
  }
  return clean ? out : null;
}

function checkString(raw: Json, path: string, out: PrimitiveSchema, add: (p: string, m: string) => void): void {
  const minLength = lengthKeyword(raw, 'minLength', path, add);
  const maxLength = lengthKeyword(raw, 'maxLength', path, add);
  if (minLength !== undefined) out.minLength = minLength;
  if (maxLength !== undefined) out.maxLength = maxLength;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    add(`${path}.minLength`, `minLength (${minLength}) is greater than maxLength (${maxLength}).`);
  }

  if (has(raw, 'format')) {
    const format = raw.format;
    if (typeof format === 'string' && (STRING_FORMATS as readonly string[]).includes(format)) {
      out.format = format as PrimitiveSchema['format'];
    } else {
      add(`${path}.format`, `format ${describe(format)} is not supported; use one of ${STRING_FORMATS.join(', ')}.`);
    }
  }

  if (has(raw, 'enum') && has(raw, 'oneOf')) {
    add(path, 'A single-select field must use either enum or oneOf, not both.');
    return;
  }

  let options: string[] | undefined;
  if (has(raw, 'enum')) {
    options = stringList(raw.enum, `${path}.enum`, add);
    if (options) out.enum = options;
    if (has(raw, 'enumNames')) {
      const names = raw.enumNames;
      if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
        add(`${path}.enumNames`, 'enumNames must be an array of strings.');
      } else if (options && names.length !== options.length) {
        add(`${path}.enumNames`, `enumNames has ${names.length} entries but enum has ${options.length}.`);
      } else {
        out.enumNames = [...names];
      }
    }
  } else if (has(raw, 'enumNames')) {
    add(`${path}.enumNames`, 'enumNames is only allowed together with enum.');
  } else if (has(raw, 'oneOf')) {
    const choices = constChoices(raw.oneOf, `${path}.oneOf`, add);
    if (choices) {
      out.oneOf = choices;
      options = choices.map((c) => c.const);
    }
  }

  if (has(raw, 'default')) {
    const d = raw.default;
    if (typeof d !== 'string') {
      add(`${path}.default`, `default must be a string, not ${describe(d)}.`);
    } else if (options && !options.includes(d)) {
      add(`${path}.default`, `default "${d}" is not one of the choices.`);
    } else if (minLength !== undefined && codePoints(d) < minLength) {
      add(`${path}.default`, `default is shorter than minLength (${minLength}).`);
    } else if (maxLength !== undefined && codePoints(d) > maxLength) {
      add(`${path}.default`, `default is longer than maxLength (${maxLength}).`);
    } else {
      out.default = d;
    }
  }
}

function checkNumber(
  raw: Json,
  path: string,
  out: PrimitiveSchema,
  type: 'number' | 'integer',
  add: (p: string, m: string) => void,
): void {
  for (const key of ['minimum', 'maximum'] as const) {
    if (!has(raw, key)) continue;
    const v = raw[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
    else add(`${path}.${key}`, `${key} must be a finite number, not ${describe(v)}.`);
  }
  if (out.minimum !== undefined && out.maximum !== undefined && out.minimum > out.maximum) {
    add(`${path}.minimum`, `minimum (${out.minimum}) is greater than maximum (${out.maximum}).`);
  }
  if (!has(raw, 'default')) return;
  const d = raw.default;
  if (typeof d !== 'number' || !Number.isFinite(d)) {
    add(`${path}.default`, `default must be a number, not ${describe(d)}.`);
  } else if (type === 'integer' && !Number.isInteger(d)) {
    add(`${path}.default`, `default must be a whole number, not ${d}.`);
  } else if (out.minimum !== undefined && d < out.minimum) {
    add(`${path}.default`, `default (${d}) is below minimum (${out.minimum}).`);
  } else if (out.maximum !== undefined && d > out.maximum) {
    add(`${path}.default`, `default (${d}) is above maximum (${out.maximum}).`);
  } else {
    out.default = d;
  }
}

function checkArray(raw: Json, path: string, out: PrimitiveSchema, add: (p: string, m: string) => void): void {
  const items = raw.items;
  const ipath = `${path}.items`;
  let options: string[] | undefined;
  if (!has(raw, 'items')) {
    add(ipath, 'A multi-select field needs items with enum or anyOf choices.');
  } else if (!isObject(items)) {
    add(ipath, 'items must be a single schema object.');
  } else if (items.type === 'object' || isObject(items.properties)) {
    add(ipath, 'Arrays of objects are not allowed; a multi-select holds strings only.');
  } else if (has(items, 'type') && items.type !== 'string') {
    add(`${ipath}.type`, `Arrays of ${describe(items.type)} are not allowed; a multi-select holds strings only.`);
  } else {
    for (const key of Object.keys(items)) {
      if (CONSTRAINT_KEYWORDS.has(key) && key !== 'enum' && key !== 'anyOf') {
        add(`${ipath}.${key}`, `The keyword "${key}" is not allowed in multi-select items.`);
      }
    }
    if (has(items, 'enum') && has(items, 'anyOf')) {
      add(ipath, 'items must use either enum or anyOf, not both.');
    } else if (has(items, 'enum')) {
      options = stringList(items.enum, `${ipath}.enum`, add);
      if (options) out.items = { type: 'string', enum: options };
    } else if (has(items, 'anyOf')) {
      const choices = constChoices(items.anyOf, `${ipath}.anyOf`, add);
      if (choices) {
        out.items = items.type === 'string' ? { type: 'string', anyOf: choices } : { anyOf: choices };
        options = choices.map((c) => c.const);
      }
    } else {
      // A free list of strings has no widget and no meaning in the spec.
      add(ipath, 'A multi-select field needs items with enum or anyOf choices.');
    }
  }

  const minItems = lengthKeyword(raw, 'minItems', path, add);
  const maxItems = lengthKeyword(raw, 'maxItems', path, add);
  if (minItems !== undefined) out.minItems = minItems;
  if (maxItems !== undefined) out.maxItems = maxItems;
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
    add(`${path}.minItems`, `minItems (${minItems}) is greater than maxItems (${maxItems}).`);
  }
  if (options && minItems !== undefined && minItems > options.length) {
    add(`${path}.minItems`, `minItems (${minItems}) is more than the ${options.length} choices offered.`);
  }
  if (has(raw, 'uniqueItems') && typeof raw.uniqueItems !== 'boolean') {
    add(`${path}.uniqueItems`, 'uniqueItems must be true or false.');
  }

  if (!has(raw, 'default')) return;
  const d = raw.default;
  if (!Array.isArray(d) || !d.every((v) => typeof v === 'string')) {
    add(`${path}.default`, `default must be an array of strings, not ${describe(d)}.`);
    return;
  }
  const outside = options ? d.filter((v) => !options.includes(v)) : [];
  if (outside.length > 0) {
    add(`${path}.default`, `default contains values that are not choices: ${outside.map((v) => `"${v}"`).join(', ')}.`);
  } else if (new Set(d).size !== d.length) {
    add(`${path}.default`, 'default lists the same choice more than once.');
  } else if (minItems !== undefined && d.length < minItems) {
    add(`${path}.default`, `default has fewer than minItems (${minItems}) choices.`);
  } else if (maxItems !== undefined && d.length > maxItems) {
    add(`${path}.default`, `default has more than maxItems (${maxItems}) choices.`);
  } else {
    out.default = [...d] as AnswerValue;
  }
}

function lengthKeyword(raw: Json, key: string, path: string, add: (p: string, m: string) => void): number | undefined {
  if (!has(raw, key)) return undefined;
  const v = raw[key];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  add(`${path}.${key}`, `${key} must be a whole number of zero or more, not ${describe(v)}.`);
  return undefined;
}

function stringList(value: unknown, path: string, add: (p: string, m: string) => void): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    add(path, 'enum must be a non-empty array of strings.');
    return undefined;
  }
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    add(`${path}[${bad}]`, `Choices must be strings, not ${describe(value[bad])}.`);
    return undefined;
  }
  if (new Set(value).size !== value.length) {
    add(path, 'enum lists the same value more than once.');
    return undefined;
  }
  return [...(value as string[])];
}

function constChoices(
  value: unknown,
  path: string,
  add: (p: string, m: string) => void,
): Array<{ const: string; title?: string }> | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    add(path, 'Choices must be a non-empty array of { const, title } objects.');
    return undefined;
  }
  const out: Array<{ const: string; title?: string }> = [];
  let ok = true;
  value.forEach((choice, i) => {
    const cpath = `${path}[${i}]`;
    if (!isObject(choice) || typeof choice.const !== 'string') {
      add(cpath, 'Each choice must be an object with a string const.');
      ok = false;
      return;
    }
    for (const key of Object.keys(choice)) {
      // `type: "string"` beside const is redundant but common, so it passes.
      if ((key !== 'const' && CONSTRAINT_KEYWORDS.has(key)) || (key === 'type' && choice.type !== 'string')) {
        add(`${cpath}.${key}`, `The keyword "${key}" is not allowed in a choice.`);
        ok = false;
      }
    }
    if (has(choice, 'title') && typeof choice.title !== 'string') {
      add(`${cpath}.title`, 'A choice title must be a string.');
      ok = false;
      return;
    }
    out.push(typeof choice.title === 'string' ? { const: choice.const, title: choice.title } : { const: choice.const });
  });
  if (ok && new Set(out.map((c) => c.const)).size !== out.length) {
    add(path, 'Two choices share the same const value.');
    ok = false;
  }
  return ok ? out : undefined;
}

// Length keywords count code points, as JSON Schema does, not UTF-16 units.
function codePoints(s: string): number {
  return [...s].length;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  if (value === undefined) return 'nothing';
  return String(value);
}
