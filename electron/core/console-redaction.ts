// Libraries print with console.*, and what they print is not ours to trust:
// the MCP SDK warns about a failed token refresh with the authorization
// server's raw response body, which can echo the refresh token it was sent.
// Every process Countersign runs (the app, the CLI with its web shell and
// gateway) replaces the console methods at start with ones that format the
// line, take out anything token-like and any authorization server's body, and
// hand it to that process's log (stderr; never stdout, which the gateway uses
// for MCP).
import { formatWithOptions } from 'node:util';

/** Where a withheld authorization server's body stood. */
const BODY_WITHHELD = 'Raw body: (withheld: an authorization server’s text is not printed)';
/** Where a token-like value stood. */
const REDACTED = '[redacted]';

/** Names under which OAuth carries secrets, in JSON ("name":"v") or form/query (name=v) shape. */
const SECRET_NAMES =
  'access_token|refresh_token|id_token|code|code_verifier|client_secret|assertion|client_assertion|' +
  'token|password|device_code|subject_token|actor_token';

const RULES: Array<[RegExp, string]> = [
  // The SDK's "Invalid OAuth error response: … Raw body: <body>": the body runs to the end of the message.
  [/Raw body:[\s\S]*$/, BODY_WITHHELD],
  [new RegExp(`(\\\\?"(?:${SECRET_NAMES})\\\\?"\\s*:\\s*\\\\?")[^"\\\\]*`, 'gi'), `$1${REDACTED}`],
  [new RegExp(`\\b((?:${SECRET_NAMES})=)[^&\\s"']+`, 'gi'), `$1${REDACTED}`],
  [/\b(Bearer|DPoP|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
  // Opaque credentials and JWT parts: a long run of token characters with both letters and digits.
  [/(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}/g, REDACTED],
];

/** `text` without token-like values and without any authorization server's body. */
export function redactLogText(text: string): string {
  return RULES.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

const METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const;

/**
 * Replace the global console methods (a library's console output included)
 * with ones that write one redacted line to `write`. Call first thing at
 * process start.
 */
export function routeConsoleThroughRedaction(write: (line: string) => void): void {
  const line = (...args: unknown[]) => write(redactLogText(formatWithOptions({ colors: false }, ...args)));
  // eslint-disable-next-line no-console -- replacing the console here, not printing with it
  for (const method of METHODS) console[method] = line;
  // eslint-disable-next-line no-console -- as above
  console.dir = (item: unknown) => line(item);
}
