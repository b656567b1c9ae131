// Server configuration in the `mcpServers` shape that Claude Desktop, Cursor
// and VS Code use. Validation names the server and the field, so a user with
// a bad file knows exactly what to fix; nothing half-valid is accepted.
import { HostError, messageOf } from '../host-error';
import { readCheckedFile, type FilePlace } from '../storage/private-files';
import { parseJsonText } from './json-text';
import { readForeignConfig } from './foreign-config';
import type {
  HttpServerEntry,
  OAuthSettings,
  ServerEntry,
  StdioServerEntry,
} from '../../../shared/config/server-entry';

export type { HttpServerEntry, OAuthSettings, ServerEntry, StdioServerEntry };

/** True when the entry is spawned over stdio. */
export function isStdioEntry(entry: ServerEntry): entry is StdioServerEntry {
  return 'command' in entry;
}

const STDIO_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'envFile']);
const HTTP_KEYS = new Set(['type', 'url', 'headers', 'oauth']);
// Keys other hosts write that carry no meaning for us; accepted so an
// imported file does not fail on them, and dropped.
const FOREIGN_KEYS = new Set(['disabled', 'autoApprove', 'alwaysAllow', 'timeout', 'description', 'transportType']);

function fail(server: string, field: string, problem: string): never {
  throw new HostError('config', `server "${server}": field "${field}" ${problem}`, { server, field, problem });
}

function stringRecord(server: string, field: string, value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(server, field, 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') fail(server, `${field}.${k}`, 'must be a string');
    out[k] = v;
  }
  return out;
}

/** Validate one entry; throws a HostError naming server and field. */
export function parseServerEntry(server: string, raw: unknown): ServerEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(server, '(entry)', 'must be an object');
  const obj = raw as Record<string, unknown>;
  const type = obj.type;
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'sse'].includes(type as string)) {
    fail(server, 'type', `must be "stdio", "http" or "streamable-http", not ${JSON.stringify(type)}`);
  }
  if (type === 'sse')
    fail(server, 'type', 'is "sse": the deprecated HTTP+SSE transport is not supported; use Streamable HTTP');
  const hasCommand = 'command' in obj;
  const hasUrl = 'url' in obj;
  if (hasCommand && hasUrl)
    fail(server, 'command', 'and "url" are both set; a server is either stdio (command) or HTTP (url)');
  if (!hasCommand && !hasUrl) fail(server, 'command', 'is missing (or give "url" for an HTTP server)');
  if (type === 'stdio' && !hasCommand) fail(server, 'command', 'is missing for a stdio server');
  if ((type === 'http' || type === 'streamable-http') && !hasUrl) fail(server, 'url', 'is missing for an HTTP server');

  const allowed = hasCommand ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key) && !FOREIGN_KEYS.has(key))
      fail(server, key, `is not allowed for ${hasCommand ? 'a stdio' : 'an HTTP'} server`);
  }

  if (hasCommand) {
    if (typeof obj.command !== 'string' || obj.command.trim() === '')
      fail(server, 'command', 'must be a non-empty string');
    const entry: StdioServerEntry = { command: obj.command };
    if (type === 'stdio') entry.type = 'stdio';
    if (obj.args !== undefined) {
      if (!Array.isArray(obj.args)) fail(server, 'args', 'must be an array of strings');
      obj.args.forEach((a, i) => {
        if (typeof a !== 'string') fail(server, `args[${i}]`, 'must be a string');
      });
      entry.args = obj.args as string[];
    }
    if (obj.env !== undefined) entry.env = stringRecord(server, 'env', obj.env);
    if (obj.cwd !== undefined) {
      if (typeof obj.cwd !== 'string' || obj.cwd === '') fail(server, 'cwd', 'must be a non-empty string');
      entry.cwd = obj.cwd;
    }
    if (obj.envFile !== undefined) {
      if (typeof obj.envFile !== 'string' || obj.envFile === '') fail(server, 'envFile', 'must be a non-empty string');
      entry.envFile = obj.envFile;
    }
    return entry;
  }

  if (typeof obj.url !== 'string') fail(server, 'url', 'must be a string');
  let parsed: URL;
  try {
    parsed = new URL(obj.url);
  } catch {
    fail(server, 'url', `is not a valid URL: ${JSON.stringify(obj.url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    fail(server, 'url', `must be http(s), not ${parsed.protocol}`);
  const entry: HttpServerEntry = { url: obj.url };
  if (type === 'http' || type === 'streamable-http') entry.type = type;
  if (obj.headers !== undefined) entry.headers = stringRecord(server, 'headers', obj.headers);
  if (obj.oauth !== undefined) entry.oauth = parseOAuthSettings(server, obj.oauth);
  return entry;
}

const OAUTH_KEYS = new Set([
  'clientId',
  'clientSecret',
  'scopes',
  'redirectPort',
  'callbackPort',
  'clientMetadataUrl',
  'grant',
  'privateKey',
  'signingAlgorithm',
]);

/** Validate an `oauth` object; every problem names server and field. */
export function parseOAuthSettings(server: string, raw: unknown): OAuthSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(server, 'oauth', 'must be an object');
  const o = raw as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!OAUTH_KEYS.has(key)) fail(server, `oauth.${key}`, 'is not a known sign-in setting');
  const out: OAuthSettings = {};
  const str = (key: string): string | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.trim() === '') fail(server, `oauth.${key}`, 'must be a non-empty string');
    return v;
  };
  const clientId = str('clientId');
  if (clientId) out.clientId = clientId;
  const clientSecret = str('clientSecret');
  if (clientSecret) out.clientSecret = clientSecret;
  if (clientSecret && !clientId) fail(server, 'oauth.clientSecret', 'needs "clientId" too');
  if (o.scopes !== undefined) {
    const v = o.scopes;
    const list = typeof v === 'string' ? v.split(/\s+/).filter(Boolean) : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(x)))
      fail(server, 'oauth.scopes', 'must be a list of scope names (or one space-separated string)');
    out.scopes = list as string[];
  }
  const port = o.redirectPort ?? o.callbackPort;
  if (port !== undefined) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      fail(
        server,
        o.redirectPort !== undefined ? 'oauth.redirectPort' : 'oauth.callbackPort',
        'must be a port number 1-65535',
      );
    out.redirectPort = port;
  }
  const cimd = str('clientMetadataUrl');
  if (cimd) {
    let u: URL | undefined;
    try {
      u = new URL(cimd);
    } catch {
      u = undefined;
    }
    if (!u || u.protocol !== 'https:' || u.pathname === '/')
      fail(server, 'oauth.clientMetadataUrl', 'must be an https URL with a path');
    out.clientMetadataUrl = cimd;
  }
  const grant = str('grant');
  if (grant !== undefined) {
    if (grant !== 'authorization_code' && grant !== 'client_credentials')
      fail(server, 'oauth.grant', 'must be "authorization_code" or "client_credentials"');
    out.grant = grant;
  }
  const privateKey = str('privateKey');
  if (privateKey) out.privateKey = privateKey;
  const alg = str('signingAlgorithm');
  if (alg) out.signingAlgorithm = alg;
  if (out.grant === 'client_credentials' && (!out.clientId || (!out.clientSecret && !out.privateKey)))
    fail(server, 'oauth.grant', 'client_credentials needs "clientId" and "clientSecret" or "privateKey"');
  return out;
}

/** Server names become UI labels, history keys and gateway prefixes: keep them plain. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,63}$/;
const NAME_RULE = 'use 1-64 letters, digits, ".", "_", "-" or spaces, starting with a letter or digit';

/** Validate a server name. */
export function checkServerName(name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new HostError('config', `server name ${JSON.stringify(name)} is invalid: ${NAME_RULE}`, {
      server: name,
      field: 'name',
      problem: `is invalid: ${NAME_RULE}`,
    });
  }
}

/**
 * Parse a whole config document. Accepts `{ "mcpServers": {...} }` (Claude
 * Desktop, Cursor), `{ "servers": {...} }` (VS Code mcp.json) and
 * `{ "mcp": { "servers": {...} } }` (VS Code settings.json).
 */
export function parseServerConfig(doc: unknown, source = 'config'): Record<string, ServerEntry> {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new HostError('config', `${source}: must be a JSON object with "mcpServers"`);
  }
  const d = doc as Record<string, unknown>;
  const nested = typeof d.mcp === 'object' && d.mcp !== null ? (d.mcp as Record<string, unknown>).servers : undefined;
  const servers = d.mcpServers ?? d.servers ?? nested;
  if (servers === undefined)
    throw new HostError('config', `${source}: no "mcpServers" (or VS Code "servers") object found`);
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new HostError('config', `${source}: "mcpServers" must be an object of named servers`);
  }
  const out: Record<string, ServerEntry> = {};
  for (const [name, raw] of Object.entries(servers)) {
    checkServerName(name);
    out[name] = parseServerEntry(name, raw);
  }
  return out;
}

/** Parse config text; JSON syntax errors name the source, line and column. */
export function parseServerConfigText(text: string, source = 'config'): Record<string, ServerEntry> {
  return parseServerConfig(parseJsonText(text, source), source);
}

/** An entry of a servers file that was left out, and why. */
export interface SkippedEntry {
  name: string;
  reason: string;
}

/**
 * The one loader of a servers file given on the command line (`--config`, or
 * the data folder's servers.json for `--server`): undefined when the file does
 * not exist; a file that cannot be read or parsed at all is a config error
 * naming the file (and, for syntax, the line and column). Its commands run as
 * this user, so it is read only when it is this user's own (see
 * storage/private-files: `place` says whether it lies in the data folder, where
 * a loose one is tightened). JSONC, Codex TOML and Goose YAML are read as on
 * import. An entry that cannot be used is skipped and reported to `onSkip`, so
 * one unsupported entry does not take the others down.
 */
export async function readServerConfigFile(
  file: string,
  place: FilePlace = 'private',
  onSkip: (skipped: SkippedEntry) => void = () => undefined,
): Promise<Record<string, ServerEntry> | undefined> {
  let text: string | undefined;
  try {
    text = await readCheckedFile(file, place);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError(
      'config',
      `cannot read config file ${file}: ${(e as NodeJS.ErrnoException).code ?? messageOf(e)}`,
    );
  }
  if (text === undefined) return undefined;
  const foreign = readForeignConfig(text, file);
  foreign.skipped.forEach(onSkip);
  const out: Record<string, ServerEntry> = {};
  for (const [name, raw] of Object.entries(foreign.servers)) {
    try {
      checkServerName(name);
      out[name] = parseServerEntry(name, raw);
    } catch (e) {
      onSkip({ name, reason: messageOf(e) });
    }
  }
  return out;
}
