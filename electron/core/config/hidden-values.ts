// Secrets in a server's configuration (API keys in `env`, an Authorization
// header, an OAuth client secret or private key, a password in a stdio
// server's arguments) stay in the host process:
// the renderer and the web page only ever see HIDDEN_VALUE in their place. An
// edit that sends HIDDEN_VALUE back keeps the stored value, so a form can be
// saved without the front end ever holding the secret.
import { HIDDEN_VALUE, type ServerEntry } from '../../../shared/config/server-entry';
import { HostError } from '../host-error';

type Section = 'env' | 'headers';
type Field = Section | 'oauth' | 'args';

const hideAll = (values: Record<string, string> | undefined) =>
  values && Object.fromEntries(Object.keys(values).map((k) => [k, HIDDEN_VALUE]));

// Passwords in arguments: a URL's userinfo (postgres://user:PASS@host), a
// secret-named query parameter (?password=PASS), `--password=PASS`, and the
// word after a bare `--password`. A false positive only hides a harmless value
// (it is kept on save all the same); a miss shows a secret, so the names are broad.
const SECRET_NAME = '[\\w.-]*?(?:password|passwd|pass|pwd|secret|token|key|credentials?)';
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^/?#@:\s]*:)([^/?#@\s]+)(?=@)/gi;
const QUERY_SECRET = new RegExp(`([?&]${SECRET_NAME}=)([^&#\\s]+)`, 'gi');
const FLAG_WITH_VALUE = new RegExp(`^(--?${SECRET_NAME}=)(.+)$`, 'i');
const FLAG_ALONE = new RegExp(`^--?${SECRET_NAME}$`, 'i');

/** The arguments as a front end may see them (same length, same order): each password replaced by HIDDEN_VALUE. */
export function hideArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    if (i > 0 && FLAG_ALONE.test(args[i - 1]!) && !arg.startsWith('-')) return HIDDEN_VALUE;
    const flag = FLAG_WITH_VALUE.exec(arg);
    if (flag) return `${flag[1]}${HIDDEN_VALUE}`;
    return arg.replace(URL_PASSWORD, `$1${HIDDEN_VALUE}`).replace(QUERY_SECRET, `$1${HIDDEN_VALUE}`);
  });
}

/** The entry as a front end may see it: every secret value replaced by HIDDEN_VALUE. */
export function hideSecrets(entry: ServerEntry): ServerEntry {
  if ('url' in entry) {
    const { clientSecret, privateKey, ...oauth } = entry.oauth ?? {};
    return {
      ...entry,
      ...(entry.headers ? { headers: hideAll(entry.headers) } : {}),
      ...(entry.oauth
        ? {
            oauth: {
              ...oauth,
              ...(clientSecret !== undefined ? { clientSecret: HIDDEN_VALUE } : {}),
              ...(privateKey !== undefined ? { privateKey: HIDDEN_VALUE } : {}),
            },
          }
        : {}),
    };
  }
  return {
    ...entry,
    ...(entry.env ? { env: hideAll(entry.env) } : {}),
    ...(entry.args ? { args: hideArgs(entry.args) } : {}),
  };
}

/**
 * Submitted arguments with each hidden one put back: an argument that shows
 * HIDDEN_VALUE must read exactly as a stored argument reads hidden (the one at
 * the same place first, else the first unused one), and gets that stored
 * argument. One edited around its hidden part (another host, same hidden
 * password) matches nothing and is refused: the password must be typed again.
 */
function restoreArgs(server: string, submitted: string[] | undefined, stored: string[] | undefined) {
  if (!submitted) return submitted;
  const before = stored ?? [];
  const hidden = hideArgs(before);
  const used = new Set<number>();
  return submitted.map((arg, i) => {
    if (!arg.includes(HIDDEN_VALUE)) return arg;
    const j = hidden[i] === arg && !used.has(i) ? i : hidden.findIndex((h, k) => h === arg && !used.has(k));
    if (j < 0) throw hiddenWithoutValue(server, 'args', `argument ${i + 1}`);
    used.add(j);
    return before[j]!;
  });
}

function restore(
  server: string,
  section: Section,
  submitted: Record<string, string> | undefined,
  stored: Record<string, string> | undefined,
) {
  if (!submitted) return submitted;
  return Object.fromEntries(
    Object.entries(submitted).map(([key, value]) => {
      if (value !== HIDDEN_VALUE) return [key, value];
      const kept = stored?.[key];
      if (kept === undefined)
        throw hiddenWithoutValue(server, section, `${section === 'env' ? 'variable' : 'header'} "${key}"`);
      return [key, kept];
    }),
  );
}

function hiddenWithoutValue(server: string, field: Field, what: string): HostError {
  return new HostError(
    'config',
    `server "${server}": the value of ${what} is hidden and nothing is stored for it; type the value`,
    {
      server,
      field,
      problem: 'hidden value',
    },
  );
}

/**
 * The entry a front end sent, with each HIDDEN_VALUE put back to the value
 * stored under the same key of `stored` (the entry as it is on disk). A hidden
 * value with nothing stored under its key is an error naming the key, never a
 * literal "••••" saved as a password.
 */
export function restoreHiddenSecrets(
  server: string,
  submitted: ServerEntry,
  stored: ServerEntry | undefined,
): ServerEntry {
  if ('url' in submitted) {
    const before = stored && 'url' in stored ? stored : undefined;
    const oauth = submitted.oauth && { ...submitted.oauth };
    for (const key of ['clientSecret', 'privateKey'] as const) {
      if (oauth?.[key] !== HIDDEN_VALUE) continue;
      const kept = before?.oauth?.[key];
      if (kept === undefined) throw hiddenWithoutValue(server, 'oauth', `oauth.${key}`);
      oauth[key] = kept;
    }
    const headers = restore(server, 'headers', submitted.headers, before?.headers);
    return { ...submitted, ...(headers ? { headers } : {}), ...(oauth ? { oauth } : {}) };
  }
  const before = stored && !('url' in stored) ? stored : undefined;
  const env = restore(server, 'env', submitted.env, before?.env);
  const args = restoreArgs(server, submitted.args, before?.args);
  return { ...submitted, ...(env ? { env } : {}), ...(args ? { args } : {}) };
}
