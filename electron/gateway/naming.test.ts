import { describe, expect, it } from 'vitest';
import {
  exposedNames,
  exposedResourceUris,
  explicitResourceUri,
  keyOf,
  MAX_NAME_LENGTH,
  parseExplicitResourceUri,
  sanitizePart,
} from './naming';

const names = (pairs: Array<[string, string]>) => {
  const map = exposedNames(pairs.map(([server, name]) => ({ server, name })));
  return pairs.map(([server, name]) => map.get(keyOf({ server, name }))!);
};

describe('tool and prompt names', () => {
  it('joins server and name with __, keeping only [A-Za-z0-9_-]', () => {
    expect(sanitizePart('my server.v2')).toBe('my_server_v2');
    expect(sanitizePart('')).toBe('_');
    expect(sanitizePart('zeit-erfassung_1')).toBe('zeit-erfassung_1');
    expect(
      names([
        ['kimai', 'book_time'],
        ['Zeit erfassung', 'löschen.jetzt'],
      ]),
    ).toEqual(['kimai__book_time', 'Zeit_erfassung__l_schen_jetzt']);
  });

  it('the same tool name on two servers is no collision', () => {
    expect(
      names([
        ['a', 'echo'],
        ['b', 'echo'],
      ]),
    ).toEqual(['a__echo', 'b__echo']);
  });

  it('pairs that collide after sanitising all get a hash of their own pair; others keep their names', () => {
    const [dot, underscore, space, other] = names([
      ['fx.1', 'echo'],
      ['fx_1', 'echo'],
      ['fx 1', 'echo'],
      ['fx.1', 'add'],
    ]);
    for (const n of [dot, underscore, space]) expect(n).toMatch(/^fx_1__echo_[0-9a-f]{6}$/);
    expect(new Set([dot, underscore, space]).size).toBe(3);
    expect(other).toBe('fx_1__add');
  });

  it('a separator inside names cannot merge two pairs', () => {
    const [a, b] = names([
      ['a__b', 'c'],
      ['a', 'b__c'],
    ]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^a__b__c_[0-9a-f]{6}$/);
  });

  it('is deterministic: same names in any order, and a suffix depends only on its own pair', () => {
    const forward = names([
      ['x.y', 't'],
      ['x_y', 't'],
      ['z', 't'],
    ]);
    const backward = names([
      ['z', 't'],
      ['x_y', 't'],
      ['x.y', 't'],
    ]).reverse();
    expect(backward).toEqual(forward);
    // A third colliding server does not rename the two already hashed.
    const three = names([
      ['x.y', 't'],
      ['x_y', 't'],
      ['x y', 't'],
    ]);
    expect(three.slice(0, 2)).toEqual(forward.slice(0, 2));
  });

  it('cuts long names to 64 characters with a hash, still unique', () => {
    const long = 'a'.repeat(50);
    const [one, two] = names([
      [long, `${'t'.repeat(40)}_one`],
      [long, `${'t'.repeat(40)}_two`],
    ]);
    for (const n of [one!, two!]) {
      expect(n.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(n).toMatch(/^a+__t+_[0-9a-f]{6}$/);
    }
    expect(one).not.toBe(two);
  });

  it('never exposes two pairs under one name, even for a crafted clash with a hashed name', () => {
    const first = names([
      ['p.q', 'r'],
      ['p_q', 'r'],
    ]);
    const crafted = names([
      ['p.q', 'r'],
      ['p_q', 'r'],
      ['p_q', `r_${first[0]!.slice(-6)}`],
    ]);
    expect(new Set(crafted).size).toBe(3);
  });
});

describe('resource URIs', () => {
  it('keeps a URI one server lists, and uses the explicit form for one two servers list', () => {
    const map = exposedResourceUris([
      { server: 'a', name: 'file:///notes.txt' },
      { server: 'a', name: 'fixture://secret-note' },
      { server: 'b.x', name: 'fixture://secret-note' },
    ]);
    expect(map.get(keyOf({ server: 'a', name: 'file:///notes.txt' }))).toBe('file:///notes.txt');
    expect(map.get(keyOf({ server: 'a', name: 'fixture://secret-note' }))).toBe(
      'countersign://a/fixture%3A%2F%2Fsecret-note',
    );
    expect(map.get(keyOf({ server: 'b.x', name: 'fixture://secret-note' }))).toBe(
      'countersign://b.x/fixture%3A%2F%2Fsecret-note',
    );
  });

  it('round-trips the explicit form, and rejects anything else', () => {
    const uri = explicitResourceUri('my server', 'db://rows/1?x=a b');
    expect(parseExplicitResourceUri(uri)).toEqual({ server: 'my server', uri: 'db://rows/1?x=a b' });
    expect(parseExplicitResourceUri('file:///x')).toBeUndefined();
    expect(parseExplicitResourceUri('countersign://%E0%A4%A/x')).toBeUndefined();
  });
});
