// `countersign auth login|status|logout`: sign in to an HTTP server ahead of
// time, see what is kept (never a token), and sign out (revoking where the
// authorization server offers it).
import { parseArgs } from 'node:util';
import { Host } from '../core/host';
import { HostError, messageOf } from '../core/host-error';
import type { CommandDeps } from './call-command';
import { ScriptedPrompter } from './elicit-spec';
import { openCliHistory, type CliHistory } from './history-recording';
import { errorLine, type CliIo } from './io';
import { withSignInRecording } from './session';
import { cliSignIn, SIGN_IN_OPTIONS } from './sign-in';
import { resolveTarget } from './target';
import type { SignInStatus } from '../../shared/auth/types';
import { terminalText } from '../../shared/terminal-text';

export const AUTH_USAGE =
  'usage: countersign auth (login | status | logout) (--server <name> ' +
  `[--config <file>] | --url <url>)
         [--scopes "<scope> ..."] [--no-open] [--json]
  login: sign in now (the link is printed and opened in the system browser; --no-open only prints it);
         --scopes asks for more than the server named (sign in again with more scopes)
  status: signed in or not, the issuer, the scopes, when the token expires, where it is kept
  logout: revoke the tokens where the authorization server offers revocation (RFC 7009), then delete them`;

/** Run `countersign auth ...`; returns the exit code. */
/** Where the tokens are kept: the plain sentence, then the technical reason (a platform library's words). */
function keptLines(status: SignInStatus): string[] {
  return [
    `  kept: ${terminalText(status.storage)}`,
    ...(status.storageDetails ? [`  details: ${terminalText(status.storageDetails)}`] : []),
  ];
}

export async function runAuthCommand(argv: string[], io: CliIo, deps: CommandDeps = {}): Promise<number> {
  const [action, ...rest] = argv;
  let host: Host | undefined;
  let history: CliHistory | undefined;
  try {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        config: { type: 'string' },
        url: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...SIGN_IN_OPTIONS,
      },
    });
    if (values.help || action === 'help' || action === undefined) {
      io.stdout(AUTH_USAGE);
      return action === undefined ? 2 : 0;
    }
    if (action !== 'login' && action !== 'status' && action !== 'logout')
      throw new HostError('config', `auth: unknown action ${JSON.stringify(action)} (login, status or logout)`);
    const target = await resolveTarget(values, io.env, (line) => io.stderr(line));
    if (!('url' in target.entry))
      throw new HostError('config', `server "${target.name}" is a stdio server; only HTTP servers sign in`);
    const { auth, signIn } = cliSignIn(io, values, deps.signIn);
    // Sign-ins and sign-outs are recorded whoever starts them (status writes nothing).
    if (action !== 'status') history = await openCliHistory(io);
    host = new Host({
      servers: { [target.name]: target.entry },
      prompter: { ask: (q, s) => new ScriptedPrompter([]).ask(q, s), signIn },
      auth: history ? withSignInRecording(auth, history) : auth,
    });
    const serverAuth = host.serverAuth(target.name);
    if (!serverAuth)
      throw new HostError('config', `server "${target.name}" signs in with client credentials; nothing to log in to`);
    if (action === 'login') {
      const scopes = values.scopes?.split(/\s+/).filter(Boolean);
      await serverAuth.login(scopes, io.signal);
    } else if (action === 'logout') {
      const r = await serverAuth.signOut();
      io.stderr(
        r.revocationSupported
          ? r.revoked
            ? `signed out of "${target.name}": the authorization server revoked the tokens and they were deleted`
            : `signed out of "${target.name}": deleted; the authorization server did not confirm the revocation`
          : `signed out of "${target.name}": deleted (the authorization server offers no revocation)`,
      );
    }
    const status = await serverAuth.status();
    if (values.json) io.stdout(JSON.stringify(status));
    else if (action === 'status' || action === 'login') {
      io.stdout(
        status.signedIn
          ? [
              `"${target.name}": signed in at ${terminalText(String(status.issuer))}`,
              `  scopes: ${status.scopes?.length ? terminalText(status.scopes.join(' ')) : '(none named)'}`,
              `  expires: ${status.expiresAt ?? 'not said'}${status.renewable ? ' (renews silently)' : ''}`,
              ...(status.boundToKey ? ['  bound to a key kept with it (DPoP): the token alone is of no use'] : []),
              ...keptLines(status),
            ].join('\n')
          : [`"${target.name}": not signed in`, ...keptLines(status)].join('\n'),
      );
    }
    return 0;
  } catch (error) {
    io.stderr(errorLine(messageOf(error)));
    return 2;
  } finally {
    await host?.close();
    await history?.close();
  }
}
