// The host's OAuthClientProvider: what the SDK's auth() asks a host for.
// Credentials come from (in the spec's order) the server's pre-registered
// `oauth` entry, a client ID metadata document URL, or dynamic registration
// (the SDK performs the last two; this class stores what it gets). Stored
// registrations and tokens are keyed by the issuer that made them.
//
// Per-attempt material (state, PKCE verifier, discovery state, the redirect
// listener) lives in memory only, for the one sign-in that needs it: the
// redirect comes back to this process's own loopback listener, so nothing
// of it needs to survive a restart, and a verifier on disk would only be a
// thing to steal.
import { randomBytes } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../config/server-config';
import type { AuthorizationCallback, LoopbackListener } from './loopback-listener';
import type { CredentialStore, ServerCredentials } from './credential-store';
import { checkDiscovery } from './metadata-checks';
import { chooseDpopAlg, dpopSessionFrom, isStoredDpopKey, newDpopKey, type StoredDpopKey } from './dpop-keys';

/** True for a token the authorization server bound to a DPoP key (RFC 9449 §5: token_type "DPoP"). */
export function isDpopBound(tokens: { token_type?: string } | undefined): boolean {
  return tokens?.token_type?.toLowerCase() === 'dpop';
}

/** One sign-in attempt: created before auth() runs, dropped when it ends. */
export interface Attempt {
  listener: LoopbackListener;
  state?: string;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  callback?: AuthorizationCallback;
  /** The scope this attempt asks for (what the authorization URL carries). */
  scope?: string;
  /** Aborts when the command that started a sign-in outside a call (`auth login`) is interrupted. */
  signal?: AbortSignal;
}

export interface ProviderOptions {
  serverUrl: string;
  store: CredentialStore;
  settings: OAuthSettings;
  /** Client ID metadata document URL from the app's settings (the config entry's wins). */
  clientMetadataUrl?: string;
  /** Runs the human part of a sign-in: ask, open, wait for the redirect. */
  onAuthorizationUrl(url: URL, attempt: Attempt): Promise<void>;
}

export class HostOAuthProvider implements OAuthClientProvider {
  attempt?: Attempt;
  /**
   * One DPoP session per issuer for the life of this provider: it holds the
   * key and the nonces the token endpoint and the MCP server handed out
   * (RFC 9449 §8, §9), which must carry over from one request to the next.
   */
  private readonly dpopSessions = new Map<string, { thumbprint: string; session: Promise<DpopSession> }>();
  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string | undefined {
    return this.attempt?.listener.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl ?? this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.settings.scopes;
    return {
      client_name: 'Countersign',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      // refresh_token makes the SDK add offline_access when the server lists
      // it, and lets a sign-in renew silently.
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      application_type: 'native',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    const state = randomBytes(24).toString('base64url');
    if (this.attempt) this.attempt.state = state;
    return state;
  }

  private async load(): Promise<ServerCredentials> {
    return (await this.options.store.load(this.options.serverUrl)) ?? { issuers: {} };
  }

  private async update(fn: (c: ServerCredentials) => void): Promise<void> {
    const creds = await this.load();
    fn(creds);
    await this.options.store.save(this.options.serverUrl, creds);
  }

  private preRegistered(): StoredOAuthClientInformation | undefined {
    const s = this.options.settings;
    if (!s.clientId) return undefined;
    return { client_id: s.clientId, ...(s.clientSecret ? { client_secret: s.clientSecret } : {}) };
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.preRegistered();
    if (pre) return pre;
    const creds = await this.load();
    const issuer = ctx?.issuer ?? creds.current;
    return issuer ? creds.issuers[issuer]?.client : undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    // The configured client is the config's to keep, not the store's.
    if (this.preRegistered()?.client_id === info.client_id) return;
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer) return;
    await this.update((c) => {
      c.issuers[issuer] = { ...c.issuers[issuer], client: info };
    });
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const creds = await this.load();
    const issuer = ctx?.issuer ?? creds.current;
    const entry = issuer ? creds.issuers[issuer] : undefined;
    const t = entry?.tokens;
    if (!t) return undefined;
    // A DPoP-bound token without its key can be presented nowhere: as if there were none.
    if (isDpopBound(t) && !isStoredDpopKey(entry?.dpopKey)) return undefined;
    const { savedAt: _savedAt, ...tokens } = t;
    return tokens;
  }

  /**
   * auth()'s DPoP hook: during a sign-in whose authorization server offers
   * DPoP (RFC 9449 §5.1), the session every token request is signed with;
   * otherwise undefined, and tokens stay Bearer tokens.
   */
  async dpop(): Promise<DpopSession | undefined> {
    const discovery = this.attempt?.discovery;
    const metadata = discovery?.authorizationServerMetadata;
    const issuer = metadata?.issuer;
    // RFC 9728 §2: a protected resource may say it accepts DPoP-bound tokens
    // only; then DPoP is used even when the authorization server's metadata
    // does not list its algorithms (ES256, the one every implementation has).
    const required =
      (discovery?.resourceMetadata as Record<string, unknown> | undefined)?.dpop_bound_access_tokens_required === true;
    const alg = chooseDpopAlg(metadata) ?? (required ? 'ES256' : undefined);
    if (!issuer || !alg) return undefined;
    const creds = await this.load();
    const kept = creds.issuers[issuer]?.dpopKey;
    if (isStoredDpopKey(kept) && kept.alg === alg) return this.sessionFor(issuer, kept);
    const key = await newDpopKey(alg);
    await this.update((c) => {
      c.issuers[issuer] = { ...c.issuers[issuer], dpopKey: key };
    });
    return this.sessionFor(issuer, key);
  }

  /** For requests to the MCP server: the session of the current DPoP-bound token, if it is one. */
  async resourceDpop(): Promise<DpopSession | undefined> {
    const creds = await this.load();
    const entry = creds.current ? creds.issuers[creds.current] : undefined;
    if (!creds.current || !isDpopBound(entry?.tokens) || !isStoredDpopKey(entry?.dpopKey)) return undefined;
    return this.sessionFor(creds.current, entry.dpopKey);
  }

  /** The access token to present with the DPoP scheme, when the current one is DPoP-bound. */
  async dpopAccessToken(): Promise<string | undefined> {
    const t = await this.tokens();
    return isDpopBound(t) ? t?.access_token : undefined;
  }

  private sessionFor(issuer: string, key: StoredDpopKey): Promise<DpopSession> {
    const cached = this.dpopSessions.get(issuer);
    if (cached?.thumbprint === key.thumbprint) return cached.session;
    const session = dpopSessionFrom(key);
    this.dpopSessions.set(issuer, { thumbprint: key.thumbprint, session });
    session.catch(() => this.dpopSessions.delete(issuer));
    return session;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) return;
    await this.update((c) => {
      const previous = c.issuers[issuer]?.tokens;
      c.issuers[issuer] = {
        ...c.issuers[issuer],
        tokens: {
          ...tokens,
          // A refresh may leave out the refresh token and the scope: keep the old ones.
          ...(tokens.refresh_token === undefined && previous?.refresh_token
            ? { refresh_token: previous.refresh_token }
            : {}),
          ...(tokens.scope === undefined && this.attempt?.scope ? { scope: this.attempt.scope } : {}),
          issuer,
          savedAt: Date.now(),
        },
      };
      c.current = issuer;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.attempt) throw new Error('internal: no sign-in attempt is open');
    this.attempt.scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    await this.options.onAuthorizationUrl(authorizationUrl, this.attempt);
  }

  saveCodeVerifier(codeVerifier: string): void {
    if (this.attempt) this.attempt.codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    const v = this.attempt?.codeVerifier;
    if (!v) throw new Error('internal: no PKCE verifier for this sign-in');
    return v;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // The earliest point the SDK shows the host what it found: before any
    // registration, authorization request or token request.
    checkDiscovery(state);
    if (this.attempt) this.attempt.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    // Only within an attempt (the callback leg needs it). Every new attempt
    // discovers afresh, so a server that moved to another authorization
    // server is followed (SEP-2352) instead of signing in to the old one.
    return this.attempt?.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (this.attempt) {
        if (scope === 'verifier') this.attempt.codeVerifier = undefined;
        else this.attempt.discovery = undefined;
      }
      return;
    }
    if (scope === 'all') {
      this.dpopSessions.clear();
      return this.options.store.delete(this.options.serverUrl);
    }
    const issuer = this.attempt?.discovery?.authorizationServerMetadata?.issuer;
    await this.update((c) => {
      const key = issuer ?? c.current;
      if (!key || !c.issuers[key]) return;
      if (scope === 'client') delete c.issuers[key].client;
      else delete c.issuers[key].tokens;
    });
  }
}
