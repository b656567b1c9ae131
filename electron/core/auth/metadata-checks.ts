// What the host checks in an authorization server's metadata BEFORE it
// registers, asks the human or sends anything: the things the SDK leaves to
// hosts (PKCE S256 must be advertised, not merely "not denied") and the ones
// Countersign adds because a sign-in is where look-alike pages trick people
// (TLS on every endpoint, no Punycode / mixed-script / credential-carrying
// hosts).
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { HostError } from '../host-error';

const ENDPOINT_FIELDS = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
] as const;

function refuse(message: string, details: Record<string, unknown> = {}): never {
  throw new HostError('auth', `refused to sign in: ${message}`, { reason: 'refused', ...details });
}

/**
 * Check one endpoint URL: https (or http to this computer, by the one loopback
 * rule of analyzeUrl, the same as for every link), and a host that cannot pass
 * for another.
 */
export function checkEndpoint(field: string, value: string): void {
  const a = analyzeUrl(value);
  if (a.scheme === 'http' && !a.loopback)
    refuse(`the authorization server's ${field} (${a.host}) uses plain http; sign-in needs https`, { field });
  if (a.blocked || (a.scheme !== 'https' && a.scheme !== 'http'))
    refuse(`the authorization server's ${field} is not a web address`, { field });
  for (const w of a.warnings) {
    if (w.code === 'punycode' || w.code === 'mixed-script' || w.code === 'credentials')
      refuse(`the authorization server's ${field} host "${a.host}" ${describe(w.code)}`, { field, warning: w.code });
  }
}

function describe(code: string): string {
  switch (code) {
    case 'punycode':
      return 'is an internationalised (Punycode) name that can imitate another site';
    case 'mixed-script':
      return 'mixes alphabets, which can imitate another site';
    default:
      return 'carries a user name or password in the address';
  }
}

/** The checks on discovered metadata; throws a HostError('auth') naming what is wrong. */
export function checkDiscovery(state: OAuthDiscoveryState): void {
  const m = state.authorizationServerMetadata as Record<string, unknown> | undefined;
  if (!m) refuse('the authorization server publishes no metadata, so PKCE S256 support cannot be confirmed');
  const methods = m.code_challenge_methods_supported;
  // The SDK carries on when the list is missing; the spec says a client MUST
  // NOT proceed unless S256 is advertised.
  if (!Array.isArray(methods) || !methods.includes('S256'))
    refuse(
      Array.isArray(methods)
        ? 'the authorization server does not offer PKCE with S256'
        : 'the authorization server does not say it supports PKCE with S256 ' +
            '(code_challenge_methods_supported is missing)',
    );
  for (const field of ENDPOINT_FIELDS) {
    const v = m[field];
    if (typeof v === 'string') checkEndpoint(field, v);
  }
}
