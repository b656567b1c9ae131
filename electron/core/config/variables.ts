// Variables in a server's configuration, as Cursor, VS Code and Claude Code
// write them: `${env:NAME}` and Claude Code's `${NAME}` (each with an optional
// `:-fallback`), `${userHome}`, and VS Code's `${input:ID}`.
// They stay in servers.json as written and are resolved each time a server
// starts, so a key kept in the environment never lands in Countersign's file.
// A value that cannot be resolved keeps the server from starting, with a line
// that says which value is missing and where; it is never started with the
// placeholder text in place of a key.
import { homedir } from 'node:os';
import { parseEnv } from 'node:util';
import { HostError, messageOf } from '../host-error';
import { readCheckedFile } from '../storage/private-files';
import { LIMITS } from '../limits';
import type { ServerEntry } from './server-config';

/** One `${…}` in a string: its whole text and what is inside the braces. */
const PLACEHOLDER = /\$\{([^{}]*)\}/g;

/** A value a server's configuration needs and the host cannot supply. */
export interface MissingValue {
  /** Where it stands: `env.API_KEY`, `args[2]`, `headers.Authorization`, `url`, … */
  field: string;
  /** The placeholder as written, e.g. `${env:API_KEY}`. */
  placeholder: string;
  /** Why it cannot be resolved. */
  reason: string;
}

/** What a placeholder resolves against. */
export interface VariableSources {
  env: NodeJS.ProcessEnv;
  home?: string;
}

type Resolved = { value: string } | { reason: string };

function resolveOne(inner: string, sources: VariableSources): Resolved {
  if (inner === 'userHome') return { value: sources.home ?? homedir() };
  // `userHome` and `workspaceFolder` are predefined names, not environment variables.
  const env = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
  if (inner === 'workspaceFolder')
    return { reason: 'Countersign has no workspace folder; put the folder in place of the placeholder' };
  if (env) {
    const value = sources.env[env[1]!];
    if (value !== undefined && value !== '') return { value };
    if (env[2] !== undefined) return { value: env[2] };
    return { reason: `the environment variable ${env[1]} is not set` };
  }
  if (inner.startsWith('input:'))
    return { reason: 'it is asked for when the server is imported, and no value was given' };
  return { reason: 'Countersign does not know this kind of variable' };
}

/** The places of an entry that may hold placeholders, each with its field name. */
function* fieldsOf(entry: ServerEntry): Generator<[string, string]> {
  if ('command' in entry) {
    yield ['command', entry.command];
    for (const [i, arg] of (entry.args ?? []).entries()) yield [`args[${i}]`, arg];
    for (const [key, value] of Object.entries(entry.env ?? {})) yield [`env.${key}`, value];
    if (entry.cwd !== undefined) yield ['cwd', entry.cwd];
    if (entry.envFile !== undefined) yield ['envFile', entry.envFile];
  } else {
    yield ['url', entry.url];
    for (const [key, value] of Object.entries(entry.headers ?? {})) yield [`headers.${key}`, value];
  }
}

/** Every placeholder of the entry that cannot be resolved now. */
export function missingValues(entry: ServerEntry, sources: VariableSources): MissingValue[] {
  const missing: MissingValue[] = [];
  for (const [field, text] of fieldsOf(entry)) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const resolved = resolveOne(match[1]!, sources);
      if ('reason' in resolved) missing.push({ field, placeholder: match[0], reason: resolved.reason });
    }
  }
  return missing;
}

function substitute(text: string, sources: VariableSources): string {
  return text.replace(PLACEHOLDER, (whole: string, inner: string) => {
    const resolved = resolveOne(inner, sources);
    return 'value' in resolved ? resolved.value : whole;
  });
}

const mapValues = (values: Record<string, string> | undefined, sources: VariableSources) =>
  values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, substitute(v, sources)]));

/**
 * The entry as it starts: every placeholder replaced by its value. Throws a
 * config error naming the server and each missing value when any cannot be
 * resolved, so nothing starts with a placeholder where a key should be.
 */
export function resolveVariables(server: string, entry: ServerEntry, sources: VariableSources): ServerEntry {
  const missing = missingValues(entry, sources);
  if (missing.length > 0) throw needsValues(server, missing);
  if ('command' in entry) {
    const env = mapValues(entry.env, sources);
    return {
      ...entry,
      command: substitute(entry.command, sources),
      ...(entry.args ? { args: entry.args.map((a) => substitute(a, sources)) } : {}),
      ...(env ? { env } : {}),
      ...(entry.cwd !== undefined ? { cwd: substitute(entry.cwd, sources) } : {}),
      ...(entry.envFile !== undefined ? { envFile: substitute(entry.envFile, sources) } : {}),
    };
  }
  const headers = mapValues(entry.headers, sources);
  return { ...entry, url: substitute(entry.url, sources), ...(headers ? { headers } : {}) };
}

/** One missing value in words: `${env:API_KEY} in env.API_KEY (the environment variable API_KEY is not set)`. */
export function missingText(m: MissingValue): string {
  return `${m.placeholder} in ${m.field} (${m.reason})`;
}

/** What a start failure still needs, when it failed for want of values (needsValues); else nothing. */
export function neededValues(e: unknown): string[] | undefined {
  const missing = e instanceof HostError ? e.details?.['missing'] : undefined;
  return Array.isArray(missing) ? (missing as MissingValue[]).map(missingText) : undefined;
}

/** The error for a server that cannot start for want of values. */
export function needsValues(server: string, missing: MissingValue[]): HostError {
  const list = missing.map(missingText).join('; ');
  return new HostError('config', `server "${server}" needs a value before it can start: ${list}`, {
    server,
    problem: 'needs a value',
    missing,
  });
}

/**
 * Read a `.env` file (`envFile` of VS Code and Cursor) for a server about to
 * start. It feeds a process that runs as you, so it is read like every file
 * named by the user (storage/private-files): your own, no symlink, not
 * writable by anyone else, and never chmod-ed.
 */
export async function readEnvFile(server: string, path: string): Promise<Record<string, string>> {
  let text: string | undefined;
  try {
    text = await readCheckedFile(path, 'own');
  } catch (e) {
    throw new HostError('config', `server "${server}": envFile: ${messageOf(e)}`, { server, field: 'envFile' });
  }
  if (text === undefined)
    throw new HostError('config', `server "${server}": envFile ${path} does not exist`, { server, field: 'envFile' });
  if (text.length > LIMITS.envFileBytes)
    throw new HostError('config', `server "${server}": envFile ${path} is larger than ${LIMITS.envFileBytes} bytes`);
  return parseEnv(text) as Record<string, string>;
}

/**
 * The entry a server starts with: placeholders resolved and, for an entry
 * with an `envFile`, that file's variables under the entry's own `env` (the
 * entry's values win, as in VS Code).
 */
export async function runnableEntry(
  server: string,
  entry: ServerEntry,
  sources: VariableSources,
): Promise<ServerEntry> {
  const resolved = resolveVariables(server, entry, sources);
  if (!('command' in resolved) || resolved.envFile === undefined) return resolved;
  const { envFile, ...rest } = resolved;
  return { ...rest, env: { ...(await readEnvFile(server, envFile)), ...(rest.env ?? {}) } };
}
