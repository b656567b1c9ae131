// Builds valid arguments for a tool from its input schema, for `exercise`
// (the conformance client) and for pre-filling the app's call form. Order of
// preference per property: default, first example, const/first enum value,
// then the smallest value the constraints allow. Only required properties and
// properties with a default are filled: an exerciser should not invent
// optional input.

type Schema = Record<string, unknown>;

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  hostname: 'example.com',
};

function firstType(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? (t[0] as string | undefined);
  return typeof t === 'string' ? t : undefined;
}

/** A value that satisfies `schema` (best effort for exotic constraints). */
export function exampleValue(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as Schema;
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      const nonNull = options.find((o) => (o as Schema)?.type !== 'null') ?? options[0];
      return exampleValue(nonNull, depth + 1);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0)
    return exampleValue(Object.assign({}, ...(s.allOf as Schema[])), depth + 1);
  switch (firstType(s) ?? (s.properties ? 'object' : undefined)) {
    case 'string': {
      if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format];
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      return 'x'
        .repeat(Math.max(min, 1))
        .slice(0, typeof s.maxLength === 'number' ? Math.max(s.maxLength, min) : undefined);
    }
    case 'integer':
    case 'number': {
      const integer = firstType(s) === 'integer';
      let v =
        typeof s.minimum === 'number'
          ? s.minimum
          : typeof s.exclusiveMinimum === 'number'
            ? s.exclusiveMinimum + (integer ? 1 : 0.5)
            : 1;
      if (typeof s.maximum === 'number' && v > s.maximum) v = s.maximum;
      return integer ? Math.ceil(v) : v;
    }
    case 'boolean':
      return false;
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => exampleValue(s.items, depth + 1));
    }
    case 'object':
      return exampleArguments(s, depth + 1);
    case 'null':
      return null;
    default:
      return null;
  }
}

/** Arguments object for a tool's `inputSchema`. */
export function exampleArguments(inputSchema: unknown, depth = 0): Record<string, unknown> {
  if (typeof inputSchema !== 'object' || inputSchema === null) return {};
  const s = inputSchema as Schema;
  const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    Schema
  >;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (required.has(name) || (typeof prop === 'object' && prop !== null && 'default' in prop))
      out[name] = exampleValue(prop, depth);
  }
  return out;
}
