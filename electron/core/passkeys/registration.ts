// Registering a passkey: WebAuthn creation options for the ceremony page, and
// the check of what the authenticator returned. Only the public key, its
// credential id and counter are kept; attestation is not asked for (the
// person chooses their own authenticator; Countersign does not vet vendors).
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { PasskeyRecord, PasskeyStore } from './passkey-store';
import { checkOrigin, PasskeyRefusal, readClientData, RP_ID } from './signed-payload';

/** Creation options for a new passkey named `name`, every registered one excluded. */
export async function registrationOptions(
  store: PasskeyStore,
  name: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'Countersign',
    rpID: RP_ID,
    userName: name,
    userDisplayName: name,
    attestationType: 'none',
    timeout: 60_000,
    excludeCredentials: store.list().map((p) => ({ id: p.id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

const b64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
const registrationSchema = z.object({
  id: b64url,
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: b64url, attestationObject: b64url }),
});

/** Check a registration a page posted (`value`, anything) made at `origin` for `options`; store the passkey. */
export async function finishRegistration(
  store: PasskeyStore,
  origin: string,
  name: string,
  options: PublicKeyCredentialCreationOptionsJSON,
  value: unknown,
  now: number = Date.now(),
): Promise<PasskeyRecord> {
  const posted = registrationSchema.safeParse(value);
  if (!posted.success) throw new PasskeyRefusal('refused: this is not a passkey registration');
  const { id, response: r } = posted.data;
  const response: RegistrationResponseJSON = {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: r.clientDataJSON, attestationObject: r.attestationObject },
  };
  checkOrigin(readClientData(r.clientDataJSON), origin, 'webauthn.create');
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: origin,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
  } catch (e) {
    throw new PasskeyRefusal(`refused: the new passkey did not check out (${e instanceof Error ? e.message : e})`);
  }
  if (!verified.verified || !verified.registrationInfo)
    throw new PasskeyRefusal('refused: the new passkey did not check out');
  const { credential } = verified.registrationInfo;
  const passkey: PasskeyRecord = {
    name,
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    created: new Date(now).toISOString(),
  };
  await store.add(passkey);
  return passkey;
}
