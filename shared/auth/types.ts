// What the human sees of a sign-in, and what the UI may show of a saved
// credential. Nothing here ever carries a token, a code or a verifier.
import type { UrlAnalysis } from '../elicitation/types';

/** A request to sign in to a server, put to the human before any browser opens. */
export interface SignInQuestion {
  id: string;
  mode: 'sign-in';
  /** The configured server that needs the sign-in. */
  server: string;
  /** The call that ran into it, when there is one (a human-started `auth login` has none). */
  call: { method: string; name: string; agent?: string } | null;
  /** The authorization server's issuer, as its metadata says. */
  issuer: string;
  /** The full authorization link, analysed like a URL-mode question's link. */
  url: UrlAnalysis;
  /** Scopes asked for (may be empty: the server decides). */
  scopes: string[];
  /** True when this is a step-up: the server asked for more scopes than were granted. */
  stepUp: boolean;
  /**
   * Set by the app's queue once the human opened the link: the sign-in now
   * waits for the browser to come back (the dialog shows that, with Cancel).
   */
  waiting?: boolean;
  /** Set when a gateway relayed the sign-in: the server and call are the gateway's word. */
  reportedBy?: 'gateway';
}

/** The human's decision on a sign-in question. */
export type SignInDecision = 'open' | 'cancel';

/** What the Servers view and `auth status` both show of a saved sign-in: no secret, ever. */
export interface SavedSignInFacts {
  signedIn: boolean;
  issuer?: string;
  scopes?: string[];
  /** ISO time the access token expires, when the server said. */
  expiresAt?: string;
  /** True when a refresh token is kept (sign-in renews silently). */
  renewable?: boolean;
  /** Where the credentials are kept, said plainly. */
  storage: string;
  /** Encrypted at rest with a key in the OS keychain; false: a plain 0600 file (the UI says "not encrypted"). */
  storageEncrypted?: boolean;
  /**
   * The technical reason behind `storage` (a platform library's own error, the file's path), for a
   * "Details" toggle: the sentence above is what a person reads first.
   */
  storageDetails?: string;
  /** True when the tokens are DPoP-bound (RFC 9449): useless without the key kept beside them. */
  boundToKey?: boolean;
}

/** A server's sign-in as the Servers view shows it: no secret, ever. */
export interface ServerSignInView extends SavedSignInFacts {
  /** The server answered 401: it wants a sign-in (most servers never do). */
  needed: boolean;
  /** The last sign-in failure, in the host's own words (never the authorization server's), until the next try. */
  error?: string;
}

/** A saved sign-in as the UI and `auth status` show it: no secret, ever. */
export interface SignInStatus extends SavedSignInFacts {
  server: string;
}
