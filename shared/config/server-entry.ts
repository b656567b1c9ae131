// The shape of one configured server, defined once for every side: the core's
// config loader validates files into it, the host API carries it, and the
// renderer's server form builds it. Validation rules live in the core
// (electron/core/config/server-config.ts); this file is only the type.

/** A stdio server: a command the host spawns. */
export interface StdioServerEntry {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * How to sign in to an HTTP server (all optional). The field names match
 * what VS Code and Claude Code write: `clientId`, `clientSecret`, `scopes`,
 * and Claude Code's `callbackPort` as a synonym of `redirectPort`.
 */
export interface OAuthSettings {
  /** A client pre-registered with the authorization server (used instead of registering). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** Fixed loopback port for the redirect (for a client registered with one exact redirect URI). */
  redirectPort?: number;
  /** An https URL of a client ID metadata document to use as the client_id. */
  clientMetadataUrl?: string;
  /** Machine-to-machine sign-in (no browser): the client_credentials grant. */
  grant?: 'authorization_code' | 'client_credentials';
  /** client_credentials with private_key_jwt: a PKCS#8 PEM private key and its algorithm. */
  privateKey?: string;
  signingAlgorithm?: string;
}

/** A Streamable HTTP server. */
export interface HttpServerEntry {
  type?: 'http' | 'streamable-http';
  url: string;
  headers?: Record<string, string>;
  oauth?: OAuthSettings;
}

export type ServerEntry = StdioServerEntry | HttpServerEntry;

/**
 * What the host sends in place of a secret value (an environment variable's
 * or a header's value, `oauth.clientSecret`, `oauth.privateKey`) when it
 * shows a server to a front end. Sent back unchanged in an edit, it means
 * "keep the stored value".
 */
export const HIDDEN_VALUE = '•••••• (hidden by Countersign)';
