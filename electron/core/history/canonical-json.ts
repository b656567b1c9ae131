// Canonical JSON: the one byte form an entry is hashed in.
//
// The rules are those of RFC 8785 (JCS) for the values an entry can hold:
// object keys sorted by UTF-16 code units (JavaScript's default sort), no
// whitespace, strings and numbers written exactly as JSON.stringify writes
// them (ECMAScript number formatting, lone surrogates escaped). Properties
// whose value is undefined are left out, as JSON.stringify does. Anything
// JSON cannot carry faithfully (NaN, Infinity, bigint, functions, symbols,
// undefined inside an array, cycles) is refused rather than silently changed,
// because a hash over a value that does not round-trip proves nothing.

export class CanonicalJsonError extends TypeError {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path || '(root)'}`);
    this.name = 'CanonicalJsonError';
  }
}

/** The canonical JSON text of `value`. Throws CanonicalJsonError for values JSON cannot carry. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, '', new Set());
  return out.join('');
}

function write(value: unknown, out: string[], path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`non-finite number ${value}`, path);
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`a ${typeof value} cannot be written as JSON`, path);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (seen.has(value)) throw new CanonicalJsonError('cycle', path);
  seen.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item: unknown = value[i];
      if (item === undefined) throw new CanonicalJsonError('undefined array item', `${path}[${i}]`);
      write(item, out, `${path}[${i}]`, seen);
    }
    out.push(']');
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalJsonError(`only plain objects can be written (found ${describe(value)})`, path);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    out.push('{');
    let first = true;
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(v, out, path ? `${path}.${key}` : key, seen);
    }
    out.push('}');
  }
  seen.delete(value);
}

function describe(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name ? name : 'an exotic object';
}
