// How the gateway names what it exposes, so an agent sees one flat catalogue
// of many servers. Documented in docs/agents.md; stable by construction:
//
// Tools and prompts: `<server>__<name>`, each part with every character
// outside [A-Za-z0-9_-] replaced by `_`. That charset is the strictest of the
// model APIs agents pass tool names to (OpenAI and Anthropic both refuse
// dots, which MCP would allow), and 64 characters is their length limit.
// - Longer names are cut to 57 characters plus `_` and a 6-hex hash of the
//   original (server, name) pair.
// - Two different pairs that come out the same (servers "a.b" and "a_b", or
//   "a__b"+"c" and "a"+"b__c") are BOTH given the hash suffix. A suffix
//   therefore depends only on the pair itself, never on the order servers
//   are listed in, and a name without a collision never changes.
//
// Resources keep their URIs, so links inside tool results stay readable. A URI
// that two servers both list is exposed once per server in the explicit form
// `countersign://<server>/<URI>` (both parts percent-encoded); that form is
// accepted for any server's resource at any time.
import { createHash } from 'node:crypto';

/** The separator between server and tool or prompt name. */
export const SEPARATOR = '__';
/** The longest name the gateway exposes. */
export const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 6;

/** One server's item (tool or prompt) to be named. */
export interface NameKey {
  server: string;
  name: string;
}

/** `part` with every character outside [A-Za-z0-9_-] replaced by `_`. */
export function sanitizePart(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

function hashOf(key: NameKey, length: number): string {
  return createHash('sha256').update(`${key.server}\0${key.name}`).digest('hex').slice(0, length);
}

function withHash(base: string, key: NameKey, length: number): string {
  return `${base.slice(0, MAX_NAME_LENGTH - length - 1)}_${hashOf(key, length)}`;
}

/** The map key of a (server, name) pair. */
export function keyOf(key: NameKey): string {
  return `${key.server}\0${key.name}`;
}

/**
 * Exposed names for every pair, by `keyOf(pair)`. Pure and deterministic:
 * the same pairs give the same names in any order.
 */
export function exposedNames(pairs: readonly NameKey[]): Map<string, string> {
  const unique = new Map<string, NameKey>();
  for (const p of pairs) unique.set(keyOf(p), p);
  const out = new Map<string, string>();
  const groups = new Map<string, NameKey[]>();
  for (const p of unique.values()) {
    let base = `${sanitizePart(p.server)}${SEPARATOR}${sanitizePart(p.name)}`;
    if (base.length > MAX_NAME_LENGTH) base = withHash(base, p, HASH_LENGTH);
    out.set(keyOf(p), base);
    const group = groups.get(base);
    if (group) group.push(p);
    else groups.set(base, [p]);
  }
  for (const group of groups.values()) {
    if (group.length > 1) for (const p of group) out.set(keyOf(p), withHash(out.get(keyOf(p))!, p, HASH_LENGTH));
  }
  // A hashed name could, in theory, equal another exposed name: lengthen the
  // hashes of everything involved until all names differ.
  for (let length = HASH_LENGTH + 2; length <= 32; length += 2) {
    const seen = new Map<string, string[]>();
    for (const [k, name] of out) seen.set(name, [...(seen.get(name) ?? []), k]);
    const clashing = [...seen.values()].filter((ks) => ks.length > 1).flat();
    if (clashing.length === 0) break;
    for (const k of clashing) {
      const p = unique.get(k)!;
      const base = `${sanitizePart(p.server)}${SEPARATOR}${sanitizePart(p.name)}`;
      out.set(k, withHash(base, p, length));
    }
  }
  return out;
}

const EXPLICIT = /^countersign:\/\/([^/]*)\/(.*)$/s;

/** The explicit form of a server's resource URI. */
export function explicitResourceUri(server: string, uri: string): string {
  return `countersign://${encodeURIComponent(server)}/${encodeURIComponent(uri)}`;
}

/** Parse the explicit form; undefined for any other URI. */
export function parseExplicitResourceUri(uri: string): { server: string; uri: string } | undefined {
  const m = EXPLICIT.exec(uri);
  if (!m) return undefined;
  try {
    return { server: decodeURIComponent(m[1]!), uri: decodeURIComponent(m[2]!) };
  } catch {
    return undefined;
  }
}

/** Exposed URIs by `keyOf({server, name: uri})`: the URI itself, or the explicit form when two servers list it. */
export function exposedResourceUris(pairs: readonly NameKey[]): Map<string, string> {
  const servers = new Map<string, Set<string>>();
  for (const p of pairs) servers.set(p.name, (servers.get(p.name) ?? new Set()).add(p.server));
  const out = new Map<string, string>();
  for (const p of pairs)
    out.set(keyOf(p), servers.get(p.name)!.size > 1 ? explicitResourceUri(p.server, p.name) : p.name);
  return out;
}
