// The schema the form library (RJSF) should draw. MCP's flat schema is valid
// JSON Schema, but RJSF only recognises some spellings of "pick from a list":
// it draws a multi-select only when the array has `uniqueItems: true`, it no
// longer reads `enumNames`, and titled choices are safest as `oneOf` of consts.
// Every choice list therefore comes out in one shape: `oneOf [{ const, title }]`
// (or a bare `enum` when the server gave no titles).

import type { FlatSchema, PrimitiveSchema } from './types';

/** One titled choice as the form draws it. */
export interface FormChoice {
  const: string;
  title: string;
}

/** A field as the form draws it: PrimitiveSchema minus legacy spellings, plus uniqueItems. */
export interface FormFieldSchema extends Omit<PrimitiveSchema, 'enumNames' | 'oneOf' | 'items'> {
  oneOf?: FormChoice[];
  items?: { type: 'string'; enum?: string[]; oneOf?: FormChoice[] };
  uniqueItems?: true;
}

/** The whole form schema handed to RJSF. */
export interface FormSchema {
  type: 'object';
  properties: Record<string, FormFieldSchema>;
  required?: string[];
}

/** Rewrites a checked flat schema into the spelling RJSF draws correctly; never mutates its input. */
export function normaliseForForm(schema: FlatSchema): FormSchema {
  const properties: Record<string, FormFieldSchema> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    Object.defineProperty(properties, name, {
      value: fieldForForm(prop),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const out: FormSchema = { type: 'object', properties };
  if (schema.required && schema.required.length > 0) out.required = [...schema.required];
  return out;
}

function fieldForForm(p: PrimitiveSchema): FormFieldSchema {
  const { enumNames, oneOf, items, enum: options, default: def, ...rest } = p;
  const out: FormFieldSchema = { ...rest };
  if (def !== undefined) out.default = Array.isArray(def) ? [...def] : def;

  if (p.type === 'array') {
    out.uniqueItems = true;
    if (items?.enum) out.items = { type: 'string', enum: [...items.enum] };
    // anyOf and oneOf mean the same here (consts are distinct), and oneOf is
    // the spelling RJSF and single-selects share.
    else if (items?.anyOf) out.items = { type: 'string', oneOf: titled(items.anyOf) };
    return out;
  }

  if (options && enumNames) out.oneOf = options.map((value, i) => ({ const: value, title: enumNames[i] || value }));
  else if (options) out.enum = [...options];
  else if (oneOf) out.oneOf = titled(oneOf);
  return out;
}

// A missing title would show as blank in some themes; the value is the honest fallback.
function titled(choices: ReadonlyArray<{ const: string; title?: string }>): FormChoice[] {
  return choices.map((c) => ({ const: c.const, title: c.title || c.const }));
}
