// Secrets in a server's configuration (API keys in `env`, an Authorization
// header, an OAuth client secret or private key) stay in the host process:
// the renderer and the web page only ever see HIDDEN_VALUE in their place. An
// edit that sends HIDDEN_VALUE back keeps the stored value, so a form can be
// saved without the front end ever holding the secret.
import { HIDDEN_VALUE, type ServerEntry } from '../../../shared/config/server-entry';
import { HostError } from '../host-error';

type Section = 'env' | 'headers';

const hideAll = (values: Record<string, string> | undefined) =>
  values && Object.fromEntries(Object.keys(values).map((k) => [k, HIDDEN_VALUE]));

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
  return entry.env ? { ...entry, env: hideAll(entry.env) } : entry;
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

function hiddenWithoutValue(server: string, field: Section | 'oauth', what: string): HostError {
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
  return env ? { ...submitted, env } : submitted;
}
