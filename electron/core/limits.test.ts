import { describe, expect, it } from 'vitest';
import { HostError, messageOf } from './host-error';
import { LIMITS, capLine } from './limits';

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
