// The checks an assertion over a payload must pass wherever it is verified:
// by the live verifier before a protected answer is sent, and offline by
// `countersign receipt verify`. Each refusal is one sentence naming what is
// wrong, because the person reading it has to decide whether they are being
// attacked or merely clicked too late.
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { challengeOf, type ApprovalPayload } from './payload';
import type { PasskeyRecord } from './passkey-store';

/** The relying-party id of every Countersign passkey: the only name WebAuthn accepts on loopback. */
export const RP_ID = 'localhost';

/** A passkey check that failed; the message says why, in one sentence. */
export class PasskeyRefusal extends Error {
  override name = 'PasskeyRefusal';
}

/** `value` read by `schema`, or a refusal saying it is not `what` and naming the first problem. */
export function parseOrRefuse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PasskeyRefusal(`refused: this is not ${what} (${issue?.path.join('.') || 'the whole'}: ${issue?.message})`);
}

/** The ceremony origin for a port: http://localhost:PORT (never an IP address). */
export function ceremonyOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/** True for http://localhost:PORT exactly, the only form an approval's origin takes. */
export function isCeremonyOrigin(origin: string): boolean {
  return /^http:\/\/localhost:[1-9][0-9]{0,4}$/.test(origin);
}

/** The fields of clientDataJSON the checks read. */
export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

/** Decode an assertion's clientDataJSON (base64url), or refuse. */
export function readClientData(clientDataJSON: string): ClientData {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw new PasskeyRefusal('refused: the assertion’s client data is not JSON, so nothing says what was signed');
  }
  const data = value as Partial<Record<keyof ClientData, unknown>> | null;
  if (
    data === null ||
    typeof data !== 'object' ||
    typeof data.type !== 'string' ||
    typeof data.challenge !== 'string' ||
    typeof data.origin !== 'string'
  )
    throw new PasskeyRefusal('refused: the assertion’s client data lacks its type, challenge or origin');
  return { type: data.type, challenge: data.challenge, origin: data.origin };
}

/** Refuse client data made anywhere but at `origin` (http://localhost:PORT), naming where it was made. */
export function checkOrigin(client: ClientData, origin: string, kind: 'webauthn.get' | 'webauthn.create'): void {
  if (client.type !== kind)
    throw new PasskeyRefusal(`refused: the assertion is a ${JSON.stringify(client.type)}, not a ${kind}`);
  if (client.origin === origin) return;
  let host = '';
  try {
    host = new URL(client.origin).hostname;
  } catch {
    // not a URL: reported as a foreign origin below
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('['))
    throw new PasskeyRefusal(
      `refused: the passkey was used at ${JSON.stringify(client.origin)}, an IP address, which is never a ` +
        `WebAuthn relying party; approvals are valid only at ${origin}`,
    );
  throw new PasskeyRefusal(
    `refused: the passkey was used at ${JSON.stringify(client.origin)}, not at the ceremony page ${origin} ` +
      '(the port counts: every local app shares localhost)',
  );
}

/** The parts of an assertion a receipt keeps, base64url each. */
export interface AssertionParts {
  credentialId: string;
  authenticatorData: string;
  clientDataJSON: string;
  signature: string;
  userHandle?: string;
}

const b64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
const responseSchema = z.object({
  id: b64url,
  type: z.literal('public-key'),
  response: z.object({
    authenticatorData: b64url,
    clientDataJSON: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
});

/** The assertion parts of a value posted by a page (anything at all), or a refusal naming the first problem. */
export function readAssertion(value: unknown): AssertionParts {
  const { id, response } = parseOrRefuse(responseSchema, value, 'a passkey assertion');
  return {
    credentialId: id,
    authenticatorData: response.authenticatorData,
    clientDataJSON: response.clientDataJSON,
    signature: response.signature,
    ...(response.userHandle ? { userHandle: response.userHandle } : {}),
  };
}

/** A browser's assertion in the shape @simplewebauthn/server reads. */
export function toResponseJson(parts: AssertionParts): AuthenticationResponseJSON {
  return {
    id: parts.credentialId,
    rawId: parts.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      authenticatorData: parts.authenticatorData,
      clientDataJSON: parts.clientDataJSON,
      signature: parts.signature,
      ...(parts.userHandle ? { userHandle: parts.userHandle } : {}),
    },
  };
}

/** The user-verified flag (bit 2 of the flags byte after the 32-byte rpIdHash). */
function userVerified(authenticatorData: string): boolean {
  const bytes = Buffer.from(authenticatorData, 'base64url');
  return bytes.length >= 37 && (bytes[32]! & 0x04) !== 0;
}

/**
 * Check that `parts` is a user-verified signature, made at `origin`, by a
 * registered and unrevoked passkey, over exactly `payload`. `counterAbove`
 * is the count the signature counter must pass (the stored one live; 0
 * offline, where later approvals have moved it on). Returns the passkey and
 * the counter it reported.
 */
export async function checkSignedPayload(
  payload: ApprovalPayload,
  parts: AssertionParts,
  origin: string,
  passkeys: readonly PasskeyRecord[],
  counterAbove: (passkey: PasskeyRecord) => number,
): Promise<{ passkey: PasskeyRecord; counter: number }> {
  const client = readClientData(parts.clientDataJSON);
  checkOrigin(client, origin, 'webauthn.get');
  const expected = challengeOf(payload);
  if (client.challenge !== expected)
    throw new PasskeyRefusal(
      'refused: the passkey signed another payload than this one (its challenge is ' +
        `${client.challenge}, this payload’s is ${expected}): what is shown here is not what the person confirmed`,
    );
  const passkey = passkeys.find((p) => p.id === parts.credentialId);
  if (!passkey)
    throw new PasskeyRefusal(
      `refused: the assertion was made with credential id ${parts.credentialId}, which no registered passkey has`,
    );
  if (passkey.revoked)
    throw new PasskeyRefusal(
      `refused: the passkey ${JSON.stringify(passkey.name)} was revoked at ${passkey.revoked}, ` +
        'and nothing it signs is accepted',
    );
  if (!userVerified(parts.authenticatorData))
    throw new PasskeyRefusal(
      'refused: the authenticator did not verify the person (no PIN, fingerprint or face: its user-verified ' +
        'flag is off), and a passkey approval requires it',
    );
  let counter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response: toResponseJson(parts),
      expectedChallenge: expected,
      expectedOrigin: origin,
      expectedRPID: RP_ID,
      expectedType: 'webauthn.get',
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: counterAbove(passkey),
      },
    });
    if (!result.verified) throw new Error('the library did not verify it');
    counter = result.authenticationInfo.newCounter;
  } catch (e) {
    throw new PasskeyRefusal(
      `refused: the signature does not check out against the public key of the passkey ` +
        `${JSON.stringify(passkey.name)} (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  return { passkey, counter };
}
