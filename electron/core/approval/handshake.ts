// The approval channel's handshake: each side proves it knows the key in the
// private run folder, and neither ever sends the key itself. The gateway
// speaks first with a fresh nonce; the app answers with its own nonce and a
// proof over both; only when that proof checks out does the gateway prove
// itself, and only after the app's welcome does it send a question.
//
//   gateway -> app   hello      {nonce: G}
//   app -> gateway   challenge  {nonce: A, proof: HMAC(key, "app" G A)}
//   gateway -> app   prove      {proof: HMAC(key, "gateway" G A)}
//   app -> gateway   welcome
//
// So a process that took over the socket but cannot read the key learns
// nothing (no token to replay against the real app, no question) and cannot
// answer; the role label keeps one side's proof from being reflected as the
// other's, and fresh nonces on both sides keep an old exchange from being
// replayed. What it cannot do: stop a process that CAN read the key (one
// running as the same user), or one that relays a whole session to the real
// app through a socket it moved aside. See docs/security.md.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A nonce: 32 random bytes, base64url (43 characters). */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A proof: HMAC-SHA256 in hex. */
export const PROOF_PATTERN = /^[0-9a-f]{64}$/;

export type HandshakeRole = 'app' | 'gateway';

/** A fresh nonce. */
export function newNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** What `role` sends to prove it knows `key`, bound to both nonces. */
export function handshakeProof(key: string, role: HandshakeRole, gatewayNonce: string, appNonce: string): string {
  return createHmac('sha256', key)
    .update(`countersign-approval handshake\0${role}\0${gatewayNonce}\0${appNonce}`)
    .digest('hex');
}

/** True when `proof` is what `role` would send for these nonces (constant-time). */
export function checkProof(
  key: string,
  role: HandshakeRole,
  gatewayNonce: string,
  appNonce: string,
  proof: string,
): boolean {
  if (!PROOF_PATTERN.test(proof)) return false;
  const expected = Buffer.from(handshakeProof(key, role, gatewayNonce, appNonce), 'hex');
  return timingSafeEqual(expected, Buffer.from(proof, 'hex'));
}
