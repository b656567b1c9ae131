// The add/edit server form as plain data: the mcpServers entry turned into
// text fields and back. Pure; the form component only draws it. Checks here
// are the ones the human can fix without asking the host (a missing command,
// an env line without "="); every other rule is the host's, and its messages
// are shown next to the field they name (see host-error-field.ts).
import type { ServerEntry } from '../../../../shared/host-api/contract';
import type { MessageKey } from '../../i18n/en';

/** What the form edits. Lists are one item per line. */
export interface ServerFormValues {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line (arguments may contain spaces). */
  args: string;
  /** KEY=value per line. */
  env: string;
  cwd: string;
  url: string;
  /** Name: value per line. */
  headers: string;
  /** The entry's explicit `type`, kept when editing so a save changes nothing the human did not touch. */
  type?: string;
}

/** A field of the form (errors are attached to one of these). */
export type ServerFormField = 'name' | 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers';

/** A message for one field: a dictionary key (client checks) or the host's own text. */
export type FieldError = { key: MessageKey; vars?: Record<string, string | number> } | { text: string };

export type ServerFormErrors = Partial<Record<ServerFormField, FieldError>>;

/** An empty form for a new stdio server. */
export function emptyServerForm(): ServerFormValues {
  return { name: '', transport: 'stdio', command: '', args: '', env: '', cwd: '', url: '', headers: '' };
}

/** The form for an existing entry. */
export function formFromEntry(name: string, entry: ServerEntry): ServerFormValues {
  const values = emptyServerForm();
  values.name = name;
  if (entry.type) values.type = entry.type;
  if ('command' in entry) {
    values.command = entry.command;
    values.args = (entry.args ?? []).join('\n');
    values.env = Object.entries(entry.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n');
    values.cwd = entry.cwd ?? '';
  } else {
    values.transport = 'http';
    values.url = entry.url;
    values.headers = Object.entries(entry.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
  }
  return values;
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '');
}

/** Parses `KEY<sep>value` lines; the first bad line number (1-based) when one has no separator or no key. */
function pairs(
  text: string,
  sep: '=' | ':',
): { ok: true; value: Record<string, string> } | { ok: false; line: number } {
  const out: Record<string, string> = {};
  const all = text.split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const raw = all[i]!;
    if (raw.trim() === '') continue;
    const at = raw.indexOf(sep);
    const key = at < 0 ? '' : raw.slice(0, at).trim();
    if (!key) return { ok: false, line: i + 1 };
    // defineProperty: a key may be "__proto__".
    Object.defineProperty(out, key, {
      value: sep === ':' ? raw.slice(at + 1).trim() : raw.slice(at + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, value: out };
}

/** The entry the form describes, or the errors to show next to its fields. */
export function entryFromForm(
  values: ServerFormValues,
): { ok: true; name: string; entry: ServerEntry } | { ok: false; errors: ServerFormErrors } {
  const errors: ServerFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = { key: 'servers.error.nameRequired' };
  let entry: ServerEntry | undefined;
  if (values.transport === 'stdio') {
    const command = values.command.trim();
    if (!command) errors.command = { key: 'servers.error.commandRequired' };
    const env = pairs(values.env, '=');
    if (!env.ok) errors.env = { key: 'servers.error.envLine', vars: { line: env.line } };
    const args = lines(values.args).map((l) => l.replace(/\r$/, ''));
    const cwd = values.cwd.trim();
    if (command && env.ok) {
      entry = {
        ...(values.type === 'stdio' ? { type: 'stdio' as const } : {}),
        command,
        ...(args.length > 0 ? { args } : {}),
        ...(Object.keys(env.value).length > 0 ? { env: env.value } : {}),
        ...(cwd ? { cwd } : {}),
      };
    }
  } else {
    const url = values.url.trim();
    if (!url) errors.url = { key: 'servers.error.urlRequired' };
    const headers = pairs(values.headers, ':');
    if (!headers.ok) errors.headers = { key: 'servers.error.headerLine', vars: { line: headers.line } };
    if (url && headers.ok) {
      const type = values.type === 'http' || values.type === 'streamable-http' ? values.type : undefined;
      entry = {
        ...(type ? { type } : {}),
        url,
        ...(Object.keys(headers.value).length > 0 ? { headers: headers.value } : {}),
      };
    }
  }
  if (Object.keys(errors).length > 0 || !entry) return { ok: false, errors };
  return { ok: true, name, entry };
}

/** A one-line description of how the server is reached (for the server list). */
export function entrySummary(entry: ServerEntry): string {
  if ('command' in entry) return [entry.command, ...(entry.args ?? [])].map(quoteIfNeeded).join(' ');
  return entry.url;
}

function quoteIfNeeded(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part);
}
