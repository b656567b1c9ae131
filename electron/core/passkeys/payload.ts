// The one payload a passkey signs for an approval. Everything the person is
// asked to confirm is in it, and nothing else: the ceremony page shows only
// its fields, and the challenge is the SHA-256 of its RFC 8785 canonical form,
// so a verifier holding the payload recomputes exactly the bytes that were
// signed. Large values (arguments, question, answer, requestState) appear as
// hashes, so the payload stays small and never carries a secret.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';

/** How long an approval's challenge stays valid. */
export const APPROVAL_TTL_MS = 60_000;

/** The format tag of version 1 of the payload. */
export const PAYLOAD_FORMAT = 'countersign-approval/1';

/** Which server asked: its name plus how it is reached. */
export type ServerIdentity = { name: string; command: string } | { name: string; url: string };

/** The signed payload of one approval. */
export interface ApprovalPayload {
  format: typeof PAYLOAD_FORMAT;
  /** The only origin the ceremony may run at: http://localhost:PORT. */
  origin: string;
  server: ServerIdentity;
  tool: string;
  /** sha256:<hex> of the canonical JSON of each. */
  argumentsHash: string;
  questionHash: string;
  answerHash: string;
  /** sha256:<hex> of the round's requestState, or a fresh nonce when the round has none. */
  requestStateHash?: string;
  nonce?: string;
  issuedAt: string;
  expiresAt: string;
  /** Single-use: a verifier accepts one assertion per id. */
  id: string;
}

/** The call an approval is about, as it will be sent. */
export interface ApprovedCall {
  server: ServerIdentity;
  tool: string;
  arguments: unknown;
  /** The question as shown: its message and requested schema. */
  question: { message: string; schema: unknown };
  /** The answer the person gave (action and content). */
  answer: unknown;
  requestState?: string;
  /** The round's requestState as the host keeps it (its SHA-256, hex), when the value itself is gone. */
  requestStateSha256?: string;
}

/** RFC 8785 canonical JSON; throws on values JSON cannot represent (undefined at the top, cycles, NaN). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('this value has no JSON form, so it cannot be signed');
  return text;
}

/** sha256:<hex> of the canonical JSON of `value`. */
export function hashOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex')}`;
}

/** The hashes a payload holds for a call: compared field by field by the verifier. */
export function callHashes(call: ApprovedCall): Pick<ApprovalPayload, 'argumentsHash' | 'questionHash' | 'answerHash'> {
  return {
    argumentsHash: hashOf(call.arguments ?? null),
    questionHash: hashOf({ message: call.question.message, schema: call.question.schema ?? null }),
    answerHash: hashOf(call.answer ?? null),
  };
}

/** A fresh payload for `call`, valid for 60 s from `now`, to be confirmed at `origin`. */
export function buildApprovalPayload(call: ApprovedCall, origin: string, now: number): ApprovalPayload {
  return {
    format: PAYLOAD_FORMAT,
    origin,
    server: 'url' in call.server ? { name: call.server.name, url: call.server.url } : { ...call.server },
    tool: call.tool,
    ...callHashes(call),
    ...(call.requestState !== undefined
      ? { requestStateHash: `sha256:${createHash('sha256').update(call.requestState, 'utf8').digest('hex')}` }
      : call.requestStateSha256 !== undefined
        ? { requestStateHash: `sha256:${call.requestStateSha256}` }
        : { nonce: randomBytes(16).toString('base64url') }),
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + APPROVAL_TTL_MS).toISOString(),
    id: randomUUID(),
  };
}

/** The WebAuthn challenge for a payload: SHA-256 of its canonical bytes, base64url as clientDataJSON carries it. */
export function challengeOf(payload: ApprovalPayload): string {
  return createHash('sha256').update(canonicalJson(payload), 'utf8').digest('base64url');
}
