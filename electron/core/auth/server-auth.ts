// Sign-in for one HTTP server, driven by the SDK's auth(): this class opens
// the loopback listener, runs auth(), and when auth() wants a browser, puts
// the sign-in to the human (the same prompter as every other question),
// opens the link only after consent, waits for the redirect, and hands the
// code back to auth() for the exchange (which checks `iss`, RFC 9207).
//
// One sign-in runs at a time per server: parallel requests that all got a
// 401 wait for the first and reuse its tokens instead of asking again.
import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  OAuthError,
  auth,
  computeScopeUnion,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  isStrictScopeSuperset,
  type AuthProvider,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { SignInDecision, SignInQuestion, SignInStatus } from '../../../shared/auth/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import type { OAuthSettings } from '../config/server-config';
import { HostError, isHostError, messageOf } from '../host-error';
import { CredentialStoreError, type CredentialStore, type ServerCredentials } from './credential-store';
import { HostOAuthProvider, isDpopBound, type Attempt } from './host-oauth-provider';
import { openLoopbackListener } from './loopback-listener';
import type { OpenedLink } from '../links/launcher-file';
import { checkEndpoint } from './metadata-checks';

/** The call a sign-in happens for (set by the host around each call). */
export interface SignInCallContext {
  method: string;
  name: string;
  agent?: string;
  signal?: AbortSignal;
  /** False: this work must not ask the human (the app's background connect): a needed sign-in ends "sign-in needed". */
  mayAsk?: boolean;
}

/** Where the host runs the call that may need a sign-in. */
export const signInCallContext = new AsyncLocalStorage<SignInCallContext>();

/** The human side, supplied by the app, the web shell, the CLI (or a test). */
export interface SignInInteraction {
  /**
   * Ask the human. Absent: this run cannot ask (`--no-sign-in`, the agent
   * side of the gateway), and a needed sign-in ends the call with
   * "sign-in needed".
   */
  ask?(question: SignInQuestion, signal: AbortSignal): Promise<SignInDecision>;
  /**
   * Open the link in the system browser; the implementation re-checks it
   * through the open-external gate. What it returns (the launcher page) is
   * closed as soon as the redirect came or the sign-in ended.
   */
  open(url: string): Promise<OpenedLink | void>;
  /**
   * The browser is open and the sign-in waits for it: show that. Resolves
   * when the human cancels the wait; `signal` aborts when the wait is over.
   */
  waiting?(question: SignInQuestion, signal: AbortSignal): Promise<void>;
}

/** What a sign-in did, for the history. Never a token, a code or a verifier. */
export interface SignInEvent {
  server: string;
  phase: 'asked' | 'opened' | 'completed' | 'cancelled' | 'failed' | 'signed-out';
  issuer?: string;
  scopes: string[];
  call: SignInQuestion['call'];
  /** Failed: one sentence (the host's own words, never the authorization server's). */
  error?: string;
  questionId?: string;
  /** The server and call labels came from a gateway over the approval channel. */
  reportedBy?: 'gateway';
  at: string;
}

export interface ServerAuthOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings;
  store: CredentialStore;
  interaction: SignInInteraction;
  onEvent?(event: SignInEvent): void | Promise<void>;
  /** Something reached the redirect listener that was not this sign-in's answer (one sentence, no secret). */
  onFault?(message: string): void | Promise<void>;
  clientMetadataUrl?: string;
  /** How long the listener waits for the redirect once the browser was opened. Default 5 minutes. */
  callbackTimeoutMs?: number;
  /** Step-up sign-ins per request after a 403 insufficient_scope. Default 1. */
  maxStepUps?: number;
}

const DEFAULT_CALLBACK_TIMEOUT_MS = 5 * 60_000;

export interface AuthorizeRequest {
  scope?: string;
  resourceMetadataUrl?: URL;
  forceReauthorization?: boolean;
  stepUp?: boolean;
  fetchFn?: FetchLike;
  /** Human-started (`auth login`, the Servers view): ask even when tokens exist. */
  interactive?: boolean;
  /** Ends the sign-in when the command that started it is interrupted (outside a call). */
  signal?: AbortSignal;
}

export class ServerAuth {
  readonly provider: HostOAuthProvider;
  private lock: Promise<unknown> = Promise.resolve();
  /** Scopes asked for so far (challenges and step-ups), for the next union. */
  private requestedScope: string | undefined;
  /** True once the server answered 401: it wants a sign-in (most servers never do). */
  challenged = false;

  constructor(private readonly options: ServerAuthOptions) {
    this.provider = new HostOAuthProvider({
      serverUrl: options.serverUrl,
      store: options.store,
      settings: options.settings,
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      onAuthorizationUrl: (url, attempt) => this.askAndOpen(url, attempt),
    });
  }

  get maxStepUps(): number {
    return this.options.maxStepUps ?? 1;
  }

  /** What the transport uses: the bearer token per request, and a sign-in on 401. */
  authProvider(): AuthProvider {
    return {
      token: async () => (await this.provider.tokens())?.access_token,
      onUnauthorized: async (ctx) => {
        this.challenged = true;
        const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(ctx.response);
        const rejected = (await this.provider.tokens())?.access_token;
        await this.serial(async () => {
          // Another request signed in while this one waited: use its tokens.
          const now = (await this.provider.tokens())?.access_token;
          if (now && now !== rejected) return;
          await this.authorizeNow({
            ...(scope ? { scope: computeScopeUnion(this.requestedScope, scope) } : {}),
            ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
            // Not ctx.fetchFn: that one carries the server entry's own headers,
            // which are for the MCP server, never for an authorization server.
          });
        });
      },
    };
  }

  /** Step up after 403 insufficient_scope: ask for the union of scopes (SEP-2350). */
  async stepUp(requiredScope: string | undefined, resourceMetadataUrl: URL | undefined, fetchFn?: FetchLike) {
    await this.serial(async () => {
      const tokens = await this.provider.tokens();
      const union = computeScopeUnion(this.requestedScope, tokens?.scope, requiredScope);
      await this.authorizeNow({
        ...(union ? { scope: union } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        // A refresh cannot widen a grant (RFC 6749 §6): a wider union needs a new authorization.
        forceReauthorization: isStrictScopeSuperset(union, tokens?.scope),
        stepUp: true,
        ...(fetchFn ? { fetchFn } : {}),
      });
    });
  }

  /** Sign in on the human's request (`auth login`, Sign in button); `signal` interrupts it. */
  login(scopes?: string[], signal?: AbortSignal): Promise<void> {
    const scope = scopes && scopes.length > 0 ? computeScopeUnion(this.requestedScope, scopes.join(' ')) : undefined;
    return this.serial(() =>
      this.authorizeNow({
        ...(scope ? { scope } : {}),
        forceReauthorization: true,
        interactive: true,
        ...(signal ? { signal } : {}),
      }),
    );
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  private async authorizeNow(request: AuthorizeRequest): Promise<void> {
    if (request.scope) this.requestedScope = computeScopeUnion(this.requestedScope, request.scope);
    const listener = await openLoopbackListener(this.options.settings.redirectPort ?? 0);
    const attempt: Attempt = { listener, ...(request.signal ? { signal: request.signal } : {}) };
    this.provider.attempt = attempt;
    const base = {
      serverUrl: this.options.serverUrl,
      ...(request.scope ? { scope: request.scope } : {}),
      ...(request.resourceMetadataUrl ? { resourceMetadataUrl: request.resourceMetadataUrl } : {}),
      fetchFn: guardedFetch(request.fetchFn ?? ((input, init) => fetch(input, init))),
    };
    (attempt as Attempt & { stepUp?: boolean }).stepUp = request.stepUp === true;
    try {
      let result = await auth(this.provider, {
        ...base,
        ...(request.forceReauthorization ? { forceReauthorization: true } : {}),
      });
      if (result === 'REDIRECT') {
        const callback = attempt.callback;
        if (!callback) throw new HostError('auth', 'the sign-in ended without an answer from the browser');
        try {
          result = await auth(this.provider, {
            ...base,
            authorizationCode: callback.code,
            ...(callback.iss !== undefined ? { iss: callback.iss } : {}),
          });
        } catch (e) {
          throw this.exchangeError(e);
        }
        if (result !== 'AUTHORIZED') throw new HostError('auth', 'the authorization server did not issue a token');
        await this.emit('completed', attempt);
      }
    } catch (e) {
      const error: HostError = isHostError(e) ? e : this.exchangeError(e);
      if (attempt.state !== undefined || isHostError(e, 'auth')) {
        if (error.code !== 'sign-in-needed')
          await this.emit(error.details?.reason === 'declined' ? 'cancelled' : 'failed', attempt, error.message);
      }
      throw error;
    } finally {
      if (this.provider.attempt === attempt) this.provider.attempt = undefined;
      await listener.close();
    }
  }

  /** The host's own sentence for a failed exchange: never an authorization server's text. */
  private exchangeError(e: unknown): HostError {
    if (isHostError(e)) return e;
    if (e instanceof IssuerMismatchError)
      return new HostError(
        'auth',
        e.kind === 'metadata'
          ? 'refused to sign in: the authorization server’s metadata names another issuer than the one ' +
              'Countersign asked (issuer check, RFC 8414 §3.3)'
          : 'refused the sign-in: the response did not come from the authorization server Countersign asked ' +
              '(iss check, RFC 9207)',
        { reason: 'refused' },
      );
    if (e instanceof AuthorizationServerMismatchError)
      return new HostError('auth', 'refused the sign-in: the authorization server changed during the sign-in', {
        reason: 'refused',
      });
    if (e instanceof OAuthError)
      return new HostError('auth', `the authorization server refused the sign-in (${String(e.code)})`, {
        reason: 'failed',
      });
    return new HostError('auth', `signing in to "${this.options.server}" failed: ${messageOf(e)}`, {
      reason: 'failed',
    });
  }

  private question(url: URL, attempt: Attempt): SignInQuestion {
    const ctx = signInCallContext.getStore();
    return {
      id: randomUUID(),
      mode: 'sign-in',
      server: this.options.server,
      call: ctx ? { method: ctx.method, name: ctx.name, ...(ctx.agent ? { agent: ctx.agent } : {}) } : null,
      issuer: attempt.discovery?.authorizationServerMetadata?.issuer ?? url.origin,
      url: analyzeUrl(url.href),
      scopes: (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean),
      stepUp: (attempt as Attempt & { stepUp?: boolean }).stepUp === true,
    };
  }

  private async emit(phase: SignInEvent['phase'], attempt: Attempt | undefined, error?: string, id?: string) {
    const ctx = signInCallContext.getStore();
    await this.options.onEvent?.({
      server: this.options.server,
      phase,
      ...(attempt?.discovery?.authorizationServerMetadata?.issuer
        ? { issuer: attempt.discovery.authorizationServerMetadata.issuer }
        : {}),
      scopes: (attempt?.scope ?? '').split(' ').filter(Boolean),
      call: ctx ? { method: ctx.method, name: ctx.name, ...(ctx.agent ? { agent: ctx.agent } : {}) } : null,
      ...(error ? { error } : {}),
      ...(id ? { questionId: id } : {}),
      at: new Date().toISOString(),
    });
  }

  /** auth() wants a browser: ask the human, open after consent, wait for the redirect. */
  private async askAndOpen(url: URL, attempt: Attempt): Promise<void> {
    // The link itself is checked like every endpoint (TLS, look-alike hosts).
    checkEndpoint('authorization link', url.href);
    if (!attempt.state || url.searchParams.get('state') !== attempt.state)
      throw new HostError('auth', 'internal: the authorization link does not carry this attempt’s state');
    const interaction = this.options.interaction;
    const question = this.question(url, attempt);
    if (!interaction.ask || signInCallContext.getStore()?.mayAsk === false)
      throw new HostError(
        'sign-in-needed',
        `server "${this.options.server}" needs a sign-in; run: ` +
          `countersign auth login --server "${this.options.server}"`,
      );
    const ctx = signInCallContext.getStore();
    const controller = new AbortController();
    const outer = ctx?.signal ?? attempt.signal;
    const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
    await this.emit('asked', attempt, undefined, question.id);
    let decision: SignInDecision;
    try {
      decision = await interaction.ask(question, signal);
    } catch (e) {
      if (isHostError(e)) throw isHostError(e, 'cancelled') ? declined('the sign-in was cancelled') : e;
      throw declined('the sign-in was cancelled');
    }
    if (decision !== 'open') throw declined('the sign-in was cancelled');
    const timeoutMs = this.options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
    const waiting = attempt.listener.arm(attempt.state, timeoutMs, signal, (message) => this.fault(message));
    waiting.catch(() => undefined);
    let opened: OpenedLink | void;
    try {
      opened = await interaction.open(url.href);
    } catch (e) {
      controller.abort();
      throw new HostError('auth', `could not open the browser for the sign-in: ${messageOf(e)}`, { reason: 'failed' });
    }
    // The dialog now says it waits; its Cancel ends the wait like a cancelled call.
    const waitOver = new AbortController();
    try {
      await this.emit('opened', attempt, undefined, question.id);
      interaction.waiting?.(question, AbortSignal.any([signal, waitOver.signal])).then(
        () => controller.abort(),
        () => undefined,
      );
      attempt.callback = await waiting;
    } catch (e) {
      // Stopped by the command, not by the human: say so (the wait's own time limit never ran out).
      if (attempt.signal?.aborted)
        throw new HostError('auth', 'the sign-in was interrupted before the browser came back; not signed in', {
          reason: 'interrupted',
        });
      throw isHostError(e, 'cancelled') ? declined('the sign-in was cancelled') : e;
    } finally {
      waitOver.abort();
      // The browser has followed the page, or the sign-in is over: the page (state, challenge) goes.
      if (opened) await opened.close().catch(() => undefined);
    }
  }

  /** Report a stray request at the redirect listener; a reporter's failure never touches the sign-in. */
  private fault(message: string): void {
    try {
      Promise.resolve(this.options.onFault?.(`sign-in to "${this.options.server}": ${message}`)).catch(() => undefined);
    } catch {
      // As above: the sign-in goes on.
    }
  }

  /** Signed in or not, for the UI and `auth status`: no secret in it. */
  async status(): Promise<SignInStatus> {
    const store = this.options.store;
    const kept = (await store.describe?.()) ?? { encrypted: false, text: store.description };
    const base = {
      server: this.options.server,
      storage: kept.text,
      storageEncrypted: kept.encrypted,
      ...(kept.details ? { storageDetails: kept.details } : {}),
    };
    let creds: ServerCredentials | undefined;
    try {
      creds = await store.load(this.options.serverUrl);
    } catch (e) {
      // An encrypted store whose keychain this process cannot reach: not signed in here, and why.
      if (e instanceof CredentialStoreError) return { ...base, signedIn: false, storage: e.message };
      throw e;
    }
    const current = creds?.current ? creds.issuers[creds.current] : undefined;
    const t = current?.tokens;
    if (!t) return { ...base, signedIn: false };
    return {
      ...base,
      signedIn: true,
      issuer: creds!.current!,
      scopes: (t.scope ?? '').split(' ').filter(Boolean),
      ...(typeof t.expires_in === 'number'
        ? { expiresAt: new Date(t.savedAt + t.expires_in * 1000).toISOString() }
        : {}),
      renewable: typeof t.refresh_token === 'string',
      ...(isDpopBound(t) ? { boundToKey: true } : {}),
    };
  }

  /**
   * Sign out: revoke at the authorization server when it advertises a
   * revocation endpoint (RFC 7009), then delete what is kept. Returns
   * whether the server confirmed the revocation.
   */
  async signOut(fetchFn: FetchLike = fetch): Promise<{ revoked: boolean; revocationSupported: boolean }> {
    const creds = await this.options.store.load(this.options.serverUrl);
    const issuer = creds?.current;
    const entry = issuer ? creds.issuers[issuer] : undefined;
    let revoked = false;
    let revocationSupported = false;
    if (entry?.tokens) {
      try {
        const info = await discoverOAuthServerInfo(this.options.serverUrl, { fetchFn });
        const endpoint = (info.authorizationServerMetadata as Record<string, unknown> | undefined)?.revocation_endpoint;
        if (typeof endpoint === 'string' && info.authorizationServerMetadata?.issuer === issuer) {
          checkEndpoint('revocation_endpoint', endpoint);
          revocationSupported = true;
          const client = (await this.provider.clientInformation({ issuer: issuer! })) ?? entry.client;
          const results = await Promise.all(
            [
              ['refresh_token', entry.tokens.refresh_token],
              ['access_token', entry.tokens.access_token],
            ]
              .filter((p): p is [string, string] => typeof p[1] === 'string')
              .map(([hint, token]) => revoke(endpoint, token, hint, client, fetchFn)),
          );
          revoked = results.every(Boolean);
        }
      } catch {
        // Revocation is best effort; the local copy is deleted regardless.
      }
    }
    await this.options.store.delete(this.options.serverUrl);
    this.requestedScope = undefined;
    await this.options.onEvent?.({
      server: this.options.server,
      phase: 'signed-out',
      ...(issuer ? { issuer } : {}),
      scopes: (entry?.tokens?.scope ?? '').split(' ').filter(Boolean),
      call: null,
      at: new Date().toISOString(),
    });
    return { revoked, revocationSupported };
  }
}

/**
 * Every request of a sign-in (metadata, registration, token) goes through
 * the endpoint check first: a look-alike or plain-http authorization server
 * is refused before anything is sent to it.
 */
function guardedFetch(next: FetchLike): FetchLike {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input.href;
    checkEndpoint('address', url);
    const response = await next(input, init);
    refuseRedirectedPost(url, init?.method, response);
    return response;
  };
}

/**
 * A token, registration or revocation request (a POST) answered with a
 * redirect the SDK does not follow (another origin, or one that drops the
 * method): say so, instead of letting the empty answer pass for an OAuth
 * error ("server_error"). The one redirect followed, a 307/308 within the
 * origin, is left to the SDK.
 */
function refuseRedirectedPost(url: string, method: string | undefined, response: Response): void {
  const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
  if (location === null || (method ?? 'GET').toUpperCase() !== 'POST') return;
  const from = new URL(url);
  let to: URL | undefined;
  try {
    to = new URL(location, from);
  } catch {
    to = undefined;
  }
  if (to && to.origin === from.origin && (response.status === 307 || response.status === 308)) return;
  throw new HostError(
    'auth',
    `the authorization server answered the sign-in's request to ${from.host}${from.pathname} with a redirect` +
      `${to ? ` to ${to.host}` : ''} (HTTP ${response.status}), which Countersign does not follow; not signed in`,
    { reason: 'failed' },
  );
}

function declined(message: string): HostError {
  return new HostError('auth', message, { reason: 'declined' });
}

async function revoke(
  endpoint: string,
  token: string,
  hint: string,
  client: { client_id: string; client_secret?: string } | undefined,
  fetchFn: FetchLike,
): Promise<boolean> {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client?.client_secret) {
    const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else if (client) body.set('client_id', client.client_id);
  const res = await fetchFn(endpoint, { method: 'POST', headers, body });
  await res.text().catch(() => undefined);
  return res.ok;
}
