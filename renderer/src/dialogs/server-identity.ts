// How a server is recognised at a glance: a colour and a two-letter monogram,
// always next to its full name. Pure functions, unit-tested.
//
// The colour is a hash of the name, so it stays the same from run to run.
// Hashes can collide, so among the servers the host knows, colliding names
// are moved to the next free palette slot, visiting names in sorted order:
// the outcome depends only on the set of configured names, never on which
// question came first. Past PALETTE_SIZE servers colours must repeat; the
// monogram and the name still tell them apart.

/** How many distinct badge colours the stylesheet defines. */
export const PALETTE_SIZE = 12;

/** A stable 32-bit FNV-1a hash of a string. */
export function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Palette slot per server name: hash-preferred, distinct among `known` while slots last. */
export function assignColours(known: Iterable<string>): Map<string, number> {
  const names = [...new Set(known)].sort();
  const taken = new Set<number>();
  const out = new Map<string, number>();
  for (const name of names) {
    let slot = hashName(name) % PALETTE_SIZE;
    if (taken.size < PALETTE_SIZE) {
      while (taken.has(slot)) slot = (slot + 1) % PALETTE_SIZE;
    }
    taken.add(slot);
    out.set(name, slot);
  }
  return out;
}

/** The colour slot of one server, given every server name the host knows. */
export function colourOf(name: string, known: Iterable<string>): number {
  return oneOf(name, known, assignColours, hashName(name) % PALETTE_SIZE);
}

/** One server's part of an assignment made over every name the host knows, itself included. */
function oneOf<T>(name: string, known: Iterable<string>, assign: (names: Set<string>) => Map<string, T>, or: T): T {
  const set = new Set(known);
  set.add(name);
  return assign(set).get(name) ?? or;
}

/** Two-letter monogram: initials of the first two words, else the first two letters. */
export function monogram(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const first = words[0];
  if (!first) return '?';
  const second = words[1];
  if (second) return (first[0]! + second[0]!).toUpperCase();
  const chars = [...first];
  return chars[0]!.toUpperCase() + (chars[1] ?? '').toLowerCase();
}

/**
 * Monograms distinct among `known` where the names allow it. A name whose
 * monogram no other name shares keeps it; names that share one ("pay-east",
 * "pay-eu": both "PE") take their first letter and the first letter where they
 * differ from the others ("PA", "PU"). Names visit in sorted order, so the
 * outcome depends only on the set of names.
 */
export function assignMonograms(known: Iterable<string>): Map<string, string> {
  const names = [...new Set(known)].sort();
  const base = new Map(names.map((n) => [n, monogram(n)] as const));
  const count = new Map<string, number>();
  for (const m of base.values()) count.set(m, (count.get(m) ?? 0) + 1);
  const taken = new Set([...base.values()].filter((m) => count.get(m) === 1));
  const out = new Map<string, string>();
  for (const name of names) {
    const own = base.get(name)!;
    if (count.get(own) === 1) {
      out.set(name, own);
      continue;
    }
    const letters = [...name.replace(/[^\p{L}\p{N}]+/gu, '')].map((c) => c.toUpperCase());
    const rivals = names
      .filter((n) => n !== name && base.get(n) === own)
      .map((n) => [...n.replace(/[^\p{L}\p{N}]+/gu, '')].map((c) => c.toUpperCase()));
    const differs = (i: number) => rivals.some((r) => r[i] !== letters[i]);
    const order = letters.map((_, i) => i).slice(1);
    order.sort((a, b) => Number(differs(b)) - Number(differs(a)) || a - b);
    const pick = [...order.map((i) => `${letters[0] ?? ''}${letters[i]}`)].find((m) => !taken.has(m)) ?? own;
    taken.add(pick);
    out.set(name, pick);
  }
  return out;
}

/** The monogram of one server, distinct among every server name the host knows. */
export function monogramOf(name: string, known: Iterable<string>): string {
  return oneOf(name, known, assignMonograms, monogram(name));
}
