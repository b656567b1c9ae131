import { describe, expect, it } from 'vitest';
import { newToken, sameToken } from './token';

describe('token', () => {
  it('is 32 random bytes in base64url and compares exactly', () => {
    const t = newToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(t);
    expect(sameToken(t, t)).toBe(true);
    expect(sameToken(t.slice(0, -1), t)).toBe(false);
    expect(sameToken(`${t}x`, t)).toBe(false);
    expect(sameToken('', t)).toBe(false);
  });
});
