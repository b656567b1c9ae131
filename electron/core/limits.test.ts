import { describe, expect, it } from 'vitest';
import { HostError, messageOf } from './host-error';
import { LIMITS, capLine, jsonDepth } from './limits';

describe('one error line stays a line', () => {
  it(`keeps a host error, and any thrown message, to ${LIMITS.errorLineChars} characters (a server sent 337 KB)`, () => {
    const huge = 'E'.repeat(337_000);
    const e = new HostError('protocol', `server "fx" failed: ${huge}`);
    expect(e.message.length).toBe(LIMITS.errorLineChars);
    expect(e.message).toMatch(/^server "fx" failed: E+ … \(\d+ more characters cut\)$/);
    expect(messageOf(new Error(huge)).length).toBe(LIMITS.errorLineChars);
    expect(messageOf(huge).length).toBe(LIMITS.errorLineChars);
    expect(capLine('short')).toBe('short');
  });
});

describe('jsonDepth', () => {
  it('counts nesting without recursion, so a value too deep for the stack is measured, and stops past the limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(jsonDepth(deep, 2_000_000)).toBe(1_000_000);
    expect(jsonDepth(deep)).toBe(LIMITS.messageDepth + 1);
    expect(jsonDepth({ a: [1, { b: 2 }], c: 'x' })).toBe(3);
    expect(jsonDepth('plain')).toBe(0);
  });
});
