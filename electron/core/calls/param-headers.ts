// SEP-2243 (MCP 2026-07-28, Streamable HTTP): a tool may mark arguments with
// `x-mcp-header: <Name>` so that the client mirrors them into
// `Mcp-Param-<Name>` request headers for gateways and load balancers. The
// SDK does this only inside `callTool`, which the host cannot use for its own
// retry loop, so the host mirrors them itself on every leg of a call.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
// Subschema positions a header annotation must not sit under: only a chain
// of `properties` keys is statically reachable.
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const MAP_KEYWORDS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** One argument to mirror: its path in `arguments` and the header name. */
export interface HeaderDeclaration {
  path: string[];
  header: string;
}

/** The declarations of a tool, or why the tool definition is invalid. */
export type HeaderScan = { valid: true; declarations: HeaderDeclaration[] } | { valid: false; reason: string };

/** Find and check every `x-mcp-header` in a tool's input schema. */
export function scanHeaderDeclarations(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    const schema = node as Record<string, unknown>;
    const where = path.length === 0 ? '<root>' : path.join('.');
    if ('x-mcp-header' in schema) {
      if (!reachable || path.length === 0)
        return `${where}: x-mcp-header is only allowed on properties reached through "properties"`;
      const name = schema['x-mcp-header'];
      if (typeof name !== 'string' || !TOKEN.test(name)) return `${where}: x-mcp-header must be an HTTP token`;
      if (typeof schema.type !== 'string' || !HEADER_TYPES.has(schema.type))
        return `${where}: x-mcp-header needs type string, integer or boolean`;
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) return `x-mcp-header "${name}" is declared twice (also "${prior}")`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, header: name });
    }
    if (typeof schema.properties === 'object' && schema.properties !== null) {
      for (const [key, child] of Object.entries(schema.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault) return fault;
      }
    }
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAP_KEYWORDS.has(keyword) && typeof sub === 'object' && sub !== null
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false);
        if (fault) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault ? { valid: false, reason: fault } : { valid: true, declarations };
}

/**
 * A header value: plain when it is safe visible ASCII, else `=?base64?…?=` of
 * its UTF-8. The empty string stays an empty header, as the conformance
 * suite expects.
 */
export function encodeHeaderValue(value: string): string {
  const sentinel = value.startsWith('=?base64?') && value.endsWith('?=');
  const plain = !sentinel && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function primitiveText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers for one call; absent and null arguments get none. */
export function paramHeaders(
  declarations: HeaderDeclaration[],
  args: Record<string, unknown> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of declarations) {
    let v: unknown = args;
    for (const key of d.path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
    if (v === undefined || v === null) continue;
    const text = primitiveText(v);
    if (text !== undefined) out[`Mcp-Param-${d.header}`] = encodeHeaderValue(text);
  }
  return out;
}
