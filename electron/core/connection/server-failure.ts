// Why a server could not be reached or started, said the one way the Servers
// view, the CLI and the gateway's log all show it: one line naming the cause
// in the user's terms (never the SDK's or the host's internals), the command
// or URL that failed (secrets hidden), how the process ended, and the last
// lines the server itself wrote to stderr. Those lines are the server's own
// words: kept as plain text (no control characters), bounded, never trusted.
import type { ServerEntry } from '../config/server-config';
import { messageOf } from '../host-error';

/** How a stdio server's process ended. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** What the host knows about one failed attempt to reach a server. */
export interface ServerFailure {
  /** Why, in one line. */
  reason: string;
  /** The command line (secrets hidden) or the URL that failed. */
  target: { kind: 'command' | 'url'; text: string };
  /** The last lines the server wrote to stderr (stdio). */
  stderr: string[];
}

/** Bounds on the stderr tail shown: lines, and characters in all (one message stays under LIMITS.errorLineChars). */
export const STDERR_TAIL = { lines: 10, chars: 1_200, lineChars: 300 } as const;

const HIDDEN = '••••••';

/** Argument names whose value is a secret (`--token x`, `--api-key=x`, `API_KEY=x`). */
const SECRET_NAME = /(token|secret|passw(or)?d|pwd|api[-_]?key|apikey|auth|credential|private[-_]?key|access[-_]?key)/i;
/** Values that are secrets on their face, whatever the flag before them. */
const SECRET_VALUE = /^(sk-|sk_live_|ghp_|gho_|github_pat_|xox[abpr]-|AKIA|glpat-|Bearer\s)/;

function hideUrlSecrets(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  try {
    const url = new URL(text);
    let changed = false;
    // URL-safe while the URL re-encodes, then shown as the others are.
    const sentinel = 'countersign-hidden-value';
    if (url.password) {
      url.password = sentinel;
      changed = true;
    }
    for (const key of [...url.searchParams.keys()])
      if (SECRET_NAME.test(key)) {
        url.searchParams.set(key, sentinel);
        changed = true;
      }
    return changed ? url.href.split(sentinel).join(HIDDEN) : text;
  } catch {
    return text;
  }
}

/** The command line as shown to the user: values that look secret, and every configured env value, hidden. */
export function commandForDisplay(command: string, args: readonly string[], env?: Record<string, string>): string {
  const words: string[] = [];
  let hideNext = false;
  for (const arg of [command, ...args]) {
    if (hideNext) {
      words.push(HIDDEN);
      hideNext = false;
      continue;
    }
    const assign = /^(-{0,2}[A-Za-z0-9_.-]+)=(.*)$/s.exec(arg);
    if (assign && SECRET_NAME.test(assign[1]!)) words.push(`${assign[1]}=${HIDDEN}`);
    else if (SECRET_VALUE.test(arg)) words.push(HIDDEN);
    else {
      words.push(hideUrlSecrets(arg));
      hideNext = /^--?[A-Za-z]/.test(arg) && SECRET_NAME.test(arg);
    }
  }
  const line = words.map((w) => (w === '' || /[\s"'\\]/.test(w) ? JSON.stringify(w) : w)).join(' ');
  return hideValues(line, env);
}

/** Every configured secret value (env, headers) that is long enough to recognise, replaced where it appears. */
function hideValues(text: string, values?: Record<string, string>): string {
  let out = text;
  for (const v of Object.values(values ?? {})) if (v.length >= 6) out = out.split(v).join(HIDDEN);
  return out;
}

/** The target of an entry as shown (command line or URL, secrets hidden). */
export function targetOf(entry: ServerEntry): ServerFailure['target'] {
  if ('url' in entry) return { kind: 'url', text: hideUrlSecrets(entry.url) };
  return { kind: 'command', text: commandForDisplay(entry.command, entry.args ?? [], entry.env) };
}

// ANSI escape sequences (a coloured log line), then any other control character but tab.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?/g;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A line of the server's stderr as plain text: no escapes, no control characters, bounded. */
function plainLine(line: string): string {
  const clean = line.replace(ANSI, '').replace(CONTROL, ' ').replace(/\s+$/, '');
  return clean.length > STDERR_TAIL.lineChars ? `${clean.slice(0, STDERR_TAIL.lineChars - 1)}…` : clean;
}

/**
 * The last lines of a server's stderr, bounded by STDERR_TAIL. A run of stack
 * frames ("    at …") keeps its first frame only, so a long stack does not
 * push the error's own line out of the tail.
 */
export function stderrTail(lines: readonly string[], env?: Record<string, string>): string[] {
  const kept: string[] = [];
  let frames = 0;
  for (const raw of lines) {
    const line = plainLine(hideValues(raw, env));
    if (line.trim() === '') continue;
    if (/^\s+at\s/.test(line)) {
      frames += 1;
      if (frames === 1) kept.push(line);
      continue;
    }
    if (frames > 1) kept.push(`    … ${frames - 1} more stack line${frames === 2 ? '' : 's'}`);
    frames = 0;
    kept.push(line);
  }
  if (frames > 1) kept.push(`    … ${frames - 1} more stack line${frames === 2 ? '' : 's'}`);
  const tail: string[] = [];
  let chars = 0;
  for (let i = kept.length - 1; i >= 0 && tail.length < STDERR_TAIL.lines; i--) {
    chars += kept[i]!.length + 1;
    if (chars > STDERR_TAIL.chars) break;
    tail.unshift(kept[i]!);
  }
  return tail;
}

/** The failure as the user reads it: the reason (naming the URL), then the command and the server's stderr. */
export function describeServerFailure(server: string, failure: ServerFailure): string {
  const verb = failure.target.kind === 'command' ? 'cannot start' : 'cannot connect to';
  const lines = [`${verb} "${server}": ${failure.reason}`];
  // An HTTP reason names its URL already.
  if (failure.target.kind === 'command') lines.push(`  command: ${failure.target.text}`);
  return [...lines, ...stderrBlock(failure.stderr)].join('\n');
}

function stderrBlock(stderr: readonly string[]): string[] {
  if (stderr.length === 0) return [];
  const what = stderr.length === 1 ? 'line' : `${stderr.length} lines`;
  return [`  its last ${what} on stderr:`, ...stderr.map((line) => `    ${line}`)];
}

/** A running server's process ended on its own: how, then its last stderr lines (reads after "the server …"). */
export function processEnded(exit: ProcessExit, stderr: readonly string[]): string {
  return [exitWords(exit), ...stderrBlock(stderr)].join('\n');
}

/** How a process ended, in words. */
export function exitWords(exit: ProcessExit): string {
  return exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
}

const errnoOf = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The error and its causes, outermost first (bounded: a cause chain may loop). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 8; e = (e as { cause?: unknown }).cause) {
    if (chain.includes(e)) break;
    chain.push(e);
  }
  return chain;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH)/;

/** Why a stdio server failed: how it ended if it did, else the spawn error or the connection's words. */
export function stdioReason(error: unknown, command: string, exit: ProcessExit | undefined): string {
  if (exit) return `the server ${exitWords(exit)} before it answered`;
  const code = errnoOf(error);
  if (code === 'ENOENT') return `the command "${command}" was not found (ENOENT)`;
  if (code === 'EACCES') return `the command "${command}" cannot be run: permission denied (EACCES)`;
  return withoutInternals(messageOf(error));
}

/** Why an HTTP server could not be reached, in one line naming the URL. */
export function httpReason(error: unknown, url: string): string {
  for (const e of causes(error)) {
    const code = errnoOf(e);
    const message = e instanceof Error ? e.message : '';
    if (code === 'ECONNREFUSED') return `nothing is listening at ${url} (connection refused)`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name of ${url} could not be resolved (${code})`;
    if (code === 'ECONNRESET') return `${url} closed the connection (ECONNRESET)`;
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `connecting to ${url} timed out (${code})`;
    if (code && TLS_CODE.test(code)) {
      // Node 24 appends advice about its own --use-system-ca flag, which a Countersign user cannot act on: the
      // reason reads the same on every runtime.
      const why = message.replace(
        /; if the root CA is installed locally, try running Node\.js with --use-system-ca$/,
        '',
      );
      return `the TLS connection to ${url} failed: ${why || code} (${code})`;
    }
    if (message === 'bad port') return `${url} uses a port that fetch refuses to use ("bad port")`;
    const data = (e as { data?: { status?: unknown; statusText?: unknown; contentType?: unknown } } | null)?.data;
    if (typeof data?.status === 'number') {
      const text = typeof data.statusText === 'string' && data.statusText ? ` ${data.statusText}` : '';
      const hint = data.status === 404 ? ': no MCP endpoint at this address' : '';
      return `${url} answered HTTP ${data.status}${text}${hint}`;
    }
    if (typeof data?.contentType === 'string')
      return `${url} answered with ${data.contentType}, not MCP (JSON or an event stream): is this the MCP endpoint?`;
    const status = /\bHTTP (\d{3})\b/.exec(message);
    if (status) return `${url} answered HTTP ${status[1]}`;
  }
  return `${withoutInternals(messageOf(error))} (${url})`;
}

/** The SDK's words without its internals (which transport probed how). */
export function withoutInternals(message: string): string {
  return message
    .replace(/\s*\(this transport probed in place[^)]*\)/g, '')
    .replace(/^Version negotiation (probe )?failed: /, '')
    .replace(/\bserver\/discover probe\b/g, 'first request');
}
