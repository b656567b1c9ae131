import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';
import { checkLine, encodeEntry, GENESIS_HASH } from './chain';
import { redactContent, redactedContentMatches, requestStateDigest } from './digests';
import { fault } from './fixtures/helpers';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('line format', () => {
  it('hash is the SHA-256 of the canonical entry without hash, and hash is the last key', () => {
    const { line, hash, entry } = encodeEntry(fault(), 1, '2026-01-02T03:04:05.678Z', GENESIS_HASH);
    expect(line.endsWith(`,"hash":"${hash}"}\n`)).toBe(true);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toEqual(entry);
    const { hash: stored, ...rest } = parsed;
    // What an independent verifier does: parse, drop hash, canonicalise, hash.
    expect(sha(canonicalJson(rest))).toBe(stored);
    expect(rest).toMatchObject({ v: 1, seq: 1, prev: GENESIS_HASH, ts: '2026-01-02T03:04:05.678Z', kind: 'fault' });
  });

  it('checkLine accepts what encodeEntry writes, strict or not, and a re-serialised line too', () => {
    const { line, entry } = encodeEntry(fault(), 7, '2026-01-02T03:04:05.678Z', 'a'.repeat(64));
    expect(checkLine(line.slice(0, -1))).toEqual({ ok: true, entry });
    expect(checkLine(line.slice(0, -1), true)).toEqual({ ok: true, entry });
    // Another tool may reorder keys and add spaces: the canonical hash still holds (not in strict mode).
    const { hash, ...rest } = entry;
    const pretty = JSON.stringify({ hash, ...rest }).replace(/,"/g, ', "');
    expect(checkLine(pretty).ok).toBe(true);
    expect(checkLine(pretty, true)).toMatchObject({ ok: false, problem: 'not-canonical' });
  });

  it('checkLine names what is wrong', () => {
    const { line } = encodeEntry(fault(), 1, '2026-01-02T03:04:05.678Z', GENESIS_HASH);
    const text = line.slice(0, -1);
    expect(checkLine('{"seq":1')).toMatchObject({ ok: false, problem: 'unparseable' });
    expect(checkLine('[1,2]')).toMatchObject({ ok: false, problem: 'malformed' });
    expect(checkLine(text.replace('"seq":1', '"seq":0'))).toMatchObject({ ok: false, problem: 'malformed' });
    expect(checkLine(text.replace('missing', 'MISSING'))).toMatchObject({ ok: false, problem: 'hash-mismatch' });
  });

  it('refuses bodies that try to set header fields', () => {
    expect(() => encodeEntry({ ...fault(), seq: 5 } as never, 1, 't', GENESIS_HASH)).toThrow(/must not set "seq"/);
    expect(() => encodeEntry({ ...fault(), hash: 'x' } as never, 1, 't', GENESIS_HASH)).toThrow(/"hash"/);
  });
});

describe('digests', () => {
  it('requestStateDigest keeps only the length and SHA-256', () => {
    const state = 'opaque-state-éß';
    expect(requestStateDigest(state)).toEqual({ length: state.length, sha256: sha(state) });
  });

  it('redactContent keeps field names and a salted hash, and can be checked against the content', () => {
    const content = { token: 'hunter2', remember: true };
    const r = redactContent(content);
    expect(r.fields).toEqual(['remember', 'token']);
    expect(r.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(r)).not.toContain('hunter2');
    expect(redactedContentMatches(r, { remember: true, token: 'hunter2' })).toBe(true);
    expect(redactedContentMatches(r, { remember: true, token: 'hunter3' })).toBe(false);
    // Salted: the same answer twice does not give the same hash.
    expect(redactContent(content).sha256).not.toBe(r.sha256);
  });
});
