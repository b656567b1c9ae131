// DPoP (RFC 9449, SEP-1932) signing keys for sign-ins whose authorization
// server offers sender-constrained tokens (or whose MCP server requires them). The proofs themselves, the `ath`
// claim and both nonce retries (token endpoint: 400 use_dpop_nonce; MCP
// server: 401 use_dpop_nonce) are the SDK's DpopSession / withDpop; this
// module only decides when DPoP is used, picks the algorithm, and turns a
// key into something the credential store can keep and back.
//
// Why the key is kept with the tokens instead of in memory: a DPoP-bound
// access token, and a public client's refresh token, work only with the key
// they were bound to (cnf.jkt). The CLI, the gateway and the app are separate
// processes sharing one credential store; a key that died with its process
// would turn every stored sign-in into a new browser sign-in. The key is a
// secret of exactly the same weight as the refresh token next to it, and is
// stored the same way (encrypted when the platform keychain is reachable).
import { DpopSession, type DpopAlg, type DpopKeyPair } from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

/** Algorithms in the order the host prefers them (ES256 is what RFC 9449 implementations share). */
const PREFERRED_ALGS: readonly DpopAlg[] = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/** A DPoP key as the credential store keeps it. */
export interface StoredDpopKey {
  alg: DpopAlg;
  /** The private JWK (it also carries the public parameters). */
  privateJwk: JWK;
  /** RFC 7638 thumbprint of the public key: the `cnf.jkt` tokens are bound to. */
  thumbprint: string;
}

/**
 * The algorithm to sign proofs with, or undefined when this authorization
 * server does not offer DPoP. RFC 9449 §5.1: `dpop_signing_alg_values_supported`
 * is how an authorization server says it issues DPoP-bound tokens. `none` and
 * symmetric algorithms are never chosen (§11.6), whatever the list says.
 */
export function chooseDpopAlg(authorizationServerMetadata: unknown): DpopAlg | undefined {
  const m = authorizationServerMetadata as Record<string, unknown> | undefined;
  const offered = m?.dpop_signing_alg_values_supported;
  if (!Array.isArray(offered)) return undefined;
  return PREFERRED_ALGS.find((alg) => offered.includes(alg));
}

/** The public part of a JWK: what a proof's `jwk` header carries. */
function publicPart(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, ...pub } = jwk;
  return pub;
}

/** A fresh key pair for one authorization server, and its storable form. */
export async function newDpopKey(alg: DpopAlg): Promise<StoredDpopKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  return { alg, privateJwk, thumbprint: await calculateJwkThumbprint(publicPart(privateJwk), 'sha256') };
}

/** A signing session (key plus per-origin nonces) from a stored key. The imported private key is not extractable. */
export async function dpopSessionFrom(stored: StoredDpopKey): Promise<DpopSession> {
  const publicJwk = publicPart(stored.privateJwk);
  const [privateKey, publicKey] = await Promise.all([
    importJWK(stored.privateJwk, stored.alg, { extractable: false }),
    importJWK(publicJwk, stored.alg),
  ]);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array)
    throw new Error('internal: the stored DPoP key is not an asymmetric key');
  const keyPair: DpopKeyPair = { privateKey, publicKey, publicJwk, thumbprint: stored.thumbprint, alg: stored.alg };
  return DpopSession.create({ keyPair });
}

/** Whether a stored value looks like a key this module wrote (a damaged or foreign entry is ignored). */
export function isStoredDpopKey(value: unknown): value is StoredDpopKey {
  const v = value as Partial<StoredDpopKey> | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.alg === 'string' &&
    PREFERRED_ALGS.includes(v.alg) &&
    typeof v.thumbprint === 'string' &&
    typeof v.privateJwk === 'object' &&
    v.privateJwk !== null &&
    typeof v.privateJwk.d === 'string'
  );
}
