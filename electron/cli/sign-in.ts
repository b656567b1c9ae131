// Signing in from the CLI: the sign-in question is printed (server, call,
// the authorization server's host with the URL analysis' warnings, the full
// link, the scopes) and the system browser opens it unless --no-open. With
// --no-sign-in the CLI never asks: a server that needs a sign-in ends the
// command with exit 2 and one line.
import { join } from 'node:path';
import type { SignInQuestion } from '../../shared/auth/types';
import { FileCredentialStore, type CredentialStore } from '../core/auth/credential-store';
import type { SignInEvent } from '../core/auth/server-auth';
import type { HostAuthOptions } from '../core/host';
import type { Prompter } from '../core/prompter/prompter';
import { openWithSystem } from '../web/system-opener';
import type { CliIo } from './io';
import { dataDir } from './paths';
import { terminalText } from '../../shared/terminal-text';

/** parseArgs options for commands that may sign in. */
export const SIGN_IN_OPTIONS = {
  'no-open': { type: 'boolean' },
  'no-sign-in': { type: 'boolean' },
} as const;

/** What a harness or test may replace: where credentials live, how a link opens, who consents. */
export interface SignInDeps {
  store?: CredentialStore;
  open?(url: string): Promise<void>;
  signIn?: Prompter['signIn'];
  clientMetadataUrl?: string;
}

/** The data folder's credential store (shared with the app and the gateway). */
export function defaultCredentialStore(env: NodeJS.ProcessEnv): CredentialStore {
  return new FileCredentialStore(join(dataDir(env), 'credentials'));
}

/**
 * The lines the CLI prints for a sign-in question (never a secret: the link
 * carries none). Names, issuer, scopes and link come from servers: shown escaped.
 */
export function signInLines(q: SignInQuestion): string[] {
  const t = (s: string) => terminalText(s);
  const host =
    q.url.hostUnicode && q.url.hostUnicode !== q.url.host ? `${q.url.hostUnicode} (${q.url.host})` : q.url.host;
  const call = q.call ? ` needs a sign-in for ${t(q.call.method)} ${t(q.call.name)}` : ' sign-in';
  const lines = [
    `[SIGN-IN] server "${t(q.server)}"${call}${q.stepUp ? ' (more permissions)' : ''}`,
    `[SIGN-IN] authorization server: ${t(host)}  (issuer ${t(q.issuer)})`,
    `[SIGN-IN] scopes: ${q.scopes.length ? t(q.scopes.join(' ')) : '(none named; the server decides)'}`,
  ];
  for (const w of q.url.warnings) lines.push(`[SIGN-IN] warning: ${t(w.message)}`);
  lines.push(`[SIGN-IN] link: ${terminalText(q.url.href, { max: Infinity })}`);
  return lines;
}

/** Build the Host's sign-in options and the prompter's signIn for a CLI run. */
export function cliSignIn(
  io: CliIo,
  flags: { 'no-open'?: boolean; 'no-sign-in'?: boolean },
  deps: SignInDeps = {},
): { auth: HostAuthOptions; signIn: NonNullable<Prompter['signIn']> } {
  const noOpen = flags['no-open'] === true;
  const signIn: NonNullable<Prompter['signIn']> =
    deps.signIn ??
    (async (q) => {
      for (const line of signInLines(q)) io.stderr(line);
      io.stderr(
        noOpen
          ? '[SIGN-IN] open the link above in a browser on this computer; waiting for the sign-in to come back'
          : '[SIGN-IN] opening the system browser; waiting for the sign-in to come back',
      );
      return 'open';
    });
  const auth: HostAuthOptions = {
    store: deps.store ?? defaultCredentialStore(io.env),
    allowSignIn: flags['no-sign-in'] !== true,
    open: deps.open ?? (noOpen ? async () => undefined : (url) => openWithSystem(url)),
    ...(deps.clientMetadataUrl ? { clientMetadataUrl: deps.clientMetadataUrl } : {}),
    onFault: (message) => io.stderr(`[SIGN-IN] ${message}`),
    onEvent: (e: SignInEvent) => {
      if (e.phase === 'completed')
        io.stderr(
          `[SIGN-IN] signed in to "${terminalText(e.server)}"${e.issuer ? ` at ${terminalText(e.issuer)}` : ''}`,
        );
    },
  };
  return { auth, signIn };
}
