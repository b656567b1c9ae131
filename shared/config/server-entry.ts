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
  /** A .env file (VS Code, Cursor) read each time the server starts; `env` wins over it. */
  envFile?: string;
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

/** A value another agent's config asks the person for when a server starts (VS Code `inputs`, `${input:ID}`). */
export interface ConfigInput {
  id: string;
  description: string;
  /** A password input: its value is a secret, kept like other hidden values. */
  password: boolean;
}

/** One server an import would add: what it runs (secrets hidden) and what it still needs. */
export interface ImportPlanItem {
  name: string;
  /** Its command line, or its URL. */
  runs: string;
  /** The entry as a front end may see it (secret values hidden). */
  entry: ServerEntry;
  /** Values it cannot start without, e.g. `${env:API_KEY} in env.API_KEY (… is not set)`. */
  needs: string[];
}
