// An interpreter for the slice of JSON Schema 2020-12 that MCP elicitation
// schemas use, producing Ajv-shaped errors. It exists because Ajv compiles
// every schema to JavaScript with `new Function`, which the renderer's strict
// Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') forbids.
// The form validator (./validator.ts) runs Ajv 2020 where evaluation is
// allowed and this interpreter where it is not; a parity test keeps the two
// in agreement on every construct a flat schema may contain.
//
// Keywords interpreted: type, const, enum, oneOf, anyOf, allOf, not,
// minLength, maxLength, pattern, format (email, uri, date, date-time, via
// ajv-formats' own definitions), minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf, items, minItems, maxItems, uniqueItems,
// properties, required, additionalProperties. Annotations (title,
// description, default, enumNames, ...) are ignored, as Ajv ignores them.
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** The fields of an Ajv ErrorObject that RJSF reads. */
export interface CheckError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

type Schema = Record<string, unknown>;

// Constraint keywords this interpreter does not know. Meeting one is reported
// as an error rather than silently passing: refusing is safer than accepting
// an answer the host's validator (Ajv) would reject.
const UNKNOWN_CONSTRAINTS = [
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'unevaluatedItems',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
  '$ref',
  '$dynamicRef',
];

/** Validates `value` against `schema`; an empty list means valid. */
export function checkValue(schema: unknown, value: unknown, instancePath = '', schemaPath = '#'): CheckError[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [err(instancePath, schemaPath, 'false schema', {}, 'boolean schema is false')];
  if (!isObject(schema)) return [];
  const errors: CheckError[] = [];
  const add = (keyword: string, params: Record<string, unknown>, message: string) =>
    errors.push(err(instancePath, `${schemaPath}/${keyword}`, keyword, params, message));

  for (const keyword of UNKNOWN_CONSTRAINTS) {
    if (keyword in schema) add(keyword, {}, `keyword ${keyword} is not supported here`);
  }

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => hasType(value, t))) {
      add('type', { type: types.join(',') }, `must be ${types.join(',')}`);
      return errors; // like Ajv: the other keywords of this schema say nothing useful about a wrong type
    }
  }
  if ('const' in schema && !equal(value, schema.const))
    add('const', { allowedValue: schema.const }, 'must be equal to constant');
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => equal(value, e))) {
    add('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');
  }

  checkString(schema, value, add);
  checkNumber(schema, value, add);
  checkCombinators(schema, value, instancePath, schemaPath, errors, add);
  if (Array.isArray(value)) checkArray(schema, value, instancePath, schemaPath, errors, add);
  if (isObject(value)) checkObject(schema, value, instancePath, schemaPath, errors, add);
  return errors;
}

type Add = (keyword: string, params: Record<string, unknown>, message: string) => void;

function checkString(schema: Schema, value: unknown, add: Add): void {
  if (typeof value !== 'string') return;
  const length = [...value].length; // code points, as Ajv counts them
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    add('minLength', { limit: schema.minLength }, `must NOT have fewer than ${schema.minLength} characters`);
  }
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    add('maxLength', { limit: schema.maxLength }, `must NOT have more than ${schema.maxLength} characters`);
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    add('pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
  }
  if (typeof schema.format === 'string' && !formatOk(schema.format, value)) {
    add('format', { format: schema.format }, `must match format "${schema.format}"`);
  }
}

function checkNumber(schema: Schema, value: unknown, add: Add): void {
  if (typeof value !== 'number') return;
  const limit = (keyword: string, comparison: string, fails: (l: number) => boolean) => {
    const l = schema[keyword];
    if (typeof l === 'number' && fails(l)) add(keyword, { comparison, limit: l }, `must be ${comparison} ${l}`);
  };
  limit('minimum', '>=', (l) => value < l);
  limit('maximum', '<=', (l) => value > l);
  limit('exclusiveMinimum', '>', (l) => value <= l);
  limit('exclusiveMaximum', '<', (l) => value >= l);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) {
    const q = value / schema.multipleOf;
    // Ajv's multipleOfPrecision as RJSF configures it (8 digits).
    if (Math.abs(Math.round(q) - q) >= 1e-8)
      add('multipleOf', { multipleOf: schema.multipleOf }, `must be multiple of ${schema.multipleOf}`);
  }
}

function checkCombinators(
  schema: Schema,
  value: unknown,
  path: string,
  sPath: string,
  errors: CheckError[],
  add: Add,
): void {
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((s, i) => errors.push(...checkValue(s, value, path, `${sPath}/allOf/${i}`)));
  }
  if (Array.isArray(schema.anyOf)) {
    const results = schema.anyOf.map((s, i) => checkValue(s, value, path, `${sPath}/anyOf/${i}`));
    if (!results.some((r) => r.length === 0)) {
      errors.push(...results.flat());
      add('anyOf', {}, 'must match a schema in anyOf');
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const results = schema.oneOf.map((s, i) => checkValue(s, value, path, `${sPath}/oneOf/${i}`));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) {
      errors.push(...results.flat());
      add('oneOf', { passingSchemas: null }, 'must match exactly one schema in oneOf');
    } else if (passing > 1) {
      add('oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf');
    }
  }
  if ('not' in schema && checkValue(schema.not, value, path, `${sPath}/not`).length === 0)
    add('not', {}, 'must NOT be valid');
}

function checkArray(
  schema: Schema,
  value: unknown[],
  path: string,
  sPath: string,
  errors: CheckError[],
  add: Add,
): void {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    add('minItems', { limit: schema.minItems }, `must NOT have fewer than ${schema.minItems} items`);
  }
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    add('maxItems', { limit: schema.maxItems }, `must NOT have more than ${schema.maxItems} items`);
  }
  if (schema.uniqueItems === true) {
    for (let j = value.length - 1; j > 0; j--) {
      const i = value.findIndex((v, k) => k < j && equal(v, value[j]));
      if (i >= 0) {
        add('uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
        break;
      }
    }
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) {
    value.forEach((item, i) => errors.push(...checkValue(schema.items, item, `${path}/${i}`, `${sPath}/items`)));
  }
}

function checkObject(
  schema: Schema,
  value: Record<string, unknown>,
  path: string,
  sPath: string,
  errors: CheckError[],
  add: Add,
): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const name of schema.required as string[]) {
      if (!Object.hasOwn(value, name) || value[name] === undefined) {
        add('required', { missingProperty: name }, `must have required property '${name}'`);
      }
    }
  }
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue; // absent, as JSON would have it
    const child = `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (Object.hasOwn(properties, name)) {
      errors.push(...checkValue(properties[name], v, child, `${sPath}/properties/${name}`));
    } else if (schema.additionalProperties === false) {
      add('additionalProperties', { additionalProperty: name }, 'must NOT have additional properties');
    } else if (isObject(schema.additionalProperties)) {
      errors.push(...checkValue(schema.additionalProperties, v, child, `${sPath}/additionalProperties`));
    }
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

type FormatDefinition = RegExp | ((s: string) => boolean) | { validate: RegExp | ((s: string) => boolean) };

function formatOk(format: string, value: string): boolean {
  const def = (fullFormats as Record<string, FormatDefinition | undefined>)[format];
  if (def === undefined) return true; // Ajv with strict:false ignores unknown formats too
  const test = typeof def === 'object' && !(def instanceof RegExp) ? def.validate : def;
  return test instanceof RegExp ? test.test(value) : test(value);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function err(
  instancePath: string,
  schemaPath: string,
  keyword: string,
  params: Record<string, unknown>,
  message: string,
): CheckError {
  return { instancePath, schemaPath, keyword, params, message };
}
