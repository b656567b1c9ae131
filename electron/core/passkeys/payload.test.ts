import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_TTL_MS,
  buildApprovalPayload,
  canonicalJson,
  challengeOf,
  hashOf,
  type ApprovedCall,
} from './payload';

const call: ApprovedCall = {
  server: { name: 'files', url: 'https://files.example/mcp' },
  tool: 'delete_file',
  arguments: { path: '/a', force: true },
  question: { message: 'Delete /a?', schema: { type: 'object' } },
  answer: { action: 'accept', content: {} },
};

describe('the approval payload', () => {
  it('is canonicalised by RFC 8785: sorted keys, ECMAScript numbers, minimal escapes', () => {
    // The number and string cases of RFC 8785, section 3.2.2.
    expect(canonicalJson({ numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001] })).toBe(
      '{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}',
    );
    expect(canonicalJson({ b: 1, a: { d: '\u20ac$\u000f\nA\'B"\\\\"/', c: null } })).toBe(
      '{"a":{"c":null,"d":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"},"b":1}',
    );
    expect(() => canonicalJson(undefined)).toThrow(/cannot be signed/);
  });

  it('hashes the arguments, question and answer, and expires 60 s after it is issued', () => {
    const payload = buildApprovalPayload(call, 'http://localhost:4100', Date.UTC(2026, 11, 7, 6, 0, 0));
    expect(payload.argumentsHash).toBe(hashOf({ force: true, path: '/a' }));
    expect(payload.questionHash).toBe(hashOf({ message: 'Delete /a?', schema: { type: 'object' } }));
    expect(payload.answerHash).toBe(hashOf({ action: 'accept', content: {} }));
    expect(Date.parse(payload.expiresAt) - Date.parse(payload.issuedAt)).toBe(APPROVAL_TTL_MS);
    expect(payload.nonce).toMatch(/^[\w-]{22}$/);
    expect(payload.requestStateHash).toBeUndefined();
    const withState = buildApprovalPayload({ ...call, requestState: 'opaque' }, 'http://localhost:4100', 0);
    expect(withState.requestStateHash).toBe(`sha256:${createHash('sha256').update('opaque').digest('hex')}`);
    expect(withState.nonce).toBeUndefined();
    expect(withState.id).not.toBe(payload.id);
  });

  it('has as challenge the SHA-256 of its canonical bytes, so any change of a field changes it', () => {
    const payload = buildApprovalPayload(call, 'http://localhost:4100', 0);
    expect(challengeOf(payload)).toBe(createHash('sha256').update(canonicalJson(payload)).digest('base64url'));
    expect(challengeOf({ ...payload, tool: 'read_file' })).not.toBe(challengeOf(payload));
    // Key order is not part of what is signed.
    const reordered = Object.fromEntries(Object.entries(payload).reverse()) as typeof payload;
    expect(challengeOf(reordered)).toBe(challengeOf(payload));
  });
});
