// A receipt: the payload a passkey signed and the assertion itself, as one
// JSON object that anyone holding the passkey's public key can check
// offline. It is independent of where the person confirmed (this desktop, a
// browser tab, later a phone): only the origin in the payload must match.
import { z } from 'zod';
import { PAYLOAD_FORMAT, type ApprovalPayload } from './payload';
import type { PasskeyRecord } from './passkey-store';
import {
  checkSignedPayload,
  isCeremonyOrigin,
  parseOrRefuse,
  PasskeyRefusal,
  type AssertionParts,
} from './signed-payload';

/** The format tag of version 1 of a receipt. */
export const RECEIPT_FORMAT = 'countersign-passkey-receipt/1';

/** A passkey-confirmed approval, as stored and exported. */
export interface Receipt {
  format: typeof RECEIPT_FORMAT;
  payload: ApprovalPayload;
  assertion: AssertionParts;
}

const b64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');
const sha = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const payloadSchema = z.strictObject({
  format: z.literal(PAYLOAD_FORMAT),
  origin: z.string(),
  server: z.union([
    z.strictObject({ name: z.string(), command: z.string() }),
    z.strictObject({ name: z.string(), url: z.string() }),
  ]),
  tool: z.string(),
  argumentsHash: sha,
  questionHash: sha,
  answerHash: sha,
  requestStateHash: sha.optional(),
  nonce: b64url.optional(),
  issuedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  id: z.string().min(1),
});
const receiptSchema = z.strictObject({
  format: z.literal(RECEIPT_FORMAT),
  payload: payloadSchema,
  assertion: z.strictObject({
    credentialId: b64url,
    authenticatorData: b64url,
    clientDataJSON: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
});

/** What a valid receipt shows, and what it cannot. */
export const RECEIPT_PROVES = [
  'a registered passkey, unlocked by its owner (user verification), signed exactly this payload',
  'at the ceremony page of the origin the payload names',
  'so the server, tool and hashes of the arguments, question and answer are the ones that person confirmed',
];
/** The limits of an offline check, said every time. */
export const RECEIPT_DOES_NOT_PROVE = [
  'when it was signed: the authenticator has no clock, and the payload’s times are Countersign’s word',
  'that it was used once: only the live verifier that issued it refuses a replay',
  'what the screen showed: a tampered Countersign could have shown one thing and asked to sign another',
  'that the call was sent, or what the server did with it',
];

/** Parse a receipt read from a file, or refuse naming the first problem. */
export function parseReceipt(value: unknown): Receipt {
  const receipt = parseOrRefuse(receiptSchema, value, 'a Countersign receipt');
  return { ...receipt, payload: receipt.payload };
}

/** Check a receipt against the registered passkeys; resolves to the passkey that signed it, or throws why not. */
export async function verifyReceipt(receipt: Receipt, passkeys: readonly PasskeyRecord[]): Promise<PasskeyRecord> {
  if (!isCeremonyOrigin(receipt.payload.origin))
    throw new PasskeyRefusal(
      `refused: the payload names the origin ${JSON.stringify(receipt.payload.origin)}, and an approval is ` +
        'valid only at http://localhost:PORT',
    );
  const { passkey } = await checkSignedPayload(
    receipt.payload,
    receipt.assertion,
    receipt.payload.origin,
    passkeys,
    () => 0,
  );
  return passkey;
}
