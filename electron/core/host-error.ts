// One error type for everything the host itself refuses or cannot do, with a
// stable code so the CLI maps it to exit 2, the history records it as a
// fault, and the UI can localise it. Decline and cancel are NOT errors.
import { capLine } from './limits';

/**
 * Why the host ended a call or refused an input. The one list: the type, the
 * approval protocol's schema and `assert_host_error` are all made from it.
 */
export const HOST_ERROR_CODES = [
  'config',
  'connection',
  'round-limit',
  'invalid-schema',
  'invalid-answer',
  'undeclared-request',
  'unknown-result-type',
  'protocol',
  'cancelled',
  /** A sign-in was refused or failed (never carries a token or an authorization server's text). */
  'auth',
  /** The server needs a sign-in that this run may not start (`--no-sign-in`, the gateway's agent side). */
  'sign-in-needed',
  /** An accept needs the person's passkey, and this run has nobody who can give it (a script, a test). */
  'passkey-needed',
  'task-failed',
  'task-expired',
  'task-timeout',
  'task-limit',
] as const;

/** Why the host ended a call or refused an input. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

/** A host-side failure with a code and one clear sentence. */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    // A server's own words end up in here; a line stays a line (LIMITS.errorLineChars).
    super(capLine(message));
  }
}

/** True for a HostError, optionally of one code. */
export function isHostError(e: unknown, code?: HostErrorCode): e is HostError {
  return e instanceof HostError && (code === undefined || e.code === code);
}

/** The message of anything thrown, for one-line reports. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return capLine(e.message + networkCause(e));
  return capLine(typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e)));
}

/**
 * Node's fetch throws a bare "fetch failed" and keeps the reason (refused,
 * reset, timed out, a certificate) in `cause`: without it the user cannot tell
 * a server that is down from one that is misconfigured.
 */
function networkCause(e: Error): string {
  if (e.message !== 'fetch failed' || !(e.cause instanceof Error)) return '';
  const code = (e.cause as NodeJS.ErrnoException).code;
  return code && !e.cause.message.includes(code) ? ` (${code}: ${e.cause.message})` : ` (${e.cause.message})`;
}
