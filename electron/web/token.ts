// The per-run secret of the loopback web shell. Anyone on this computer can
// connect to 127.0.0.1, so the socket is only half the boundary: the token,
// printed once in the URL, is the other half.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison. Both sides are hashed first so neither the
 * content nor the length of the expected token leaks through timing.
 */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
