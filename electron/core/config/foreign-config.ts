// Other agents' config files, read into `mcpServers`-shaped entries:
// Claude Desktop, Cursor and Claude Code (`mcpServers`, also per project in
// ~/.claude.json), VS Code (`servers` in mcp.json, `mcp.servers` in
// settings.json; both JSONC, with `inputs`), Codex (`[mcp_servers.*]` in
// config.toml) and Goose (`extensions` in config.yaml). Each entry is mapped
// to the fields Countersign knows; variables stay as written and are resolved
// at start (electron/core/config/variables.ts), except `${workspaceFolder}`,
// which only the file's location tells and is filled in here. The entries
// are validated by the caller, one by one: an entry that cannot be used is
// skipped with its reason, never the whole file.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { HostError, messageOf } from '../host-error';
import { lineColumn } from './json-text';
import type { ConfigInput } from '../../../shared/config/server-entry';

/** Which agent wrote the file, as far as its shape tells. */
export type ForeignFormat = 'mcpServers' | 'claude-code' | 'vscode' | 'codex' | 'goose';

export type { ConfigInput };

/** A foreign file read into raw entries, not yet validated. */
export interface ForeignConfig {
  format: ForeignFormat;
  /** Raw entries by name, in the mcpServers shape. */
  servers: Record<string, unknown>;
  /** Entries that have no mcpServers form at all (a Goose built-in, a disabled entry), with why. */
  skipped: Array<{ name: string; reason: string }>;
  inputs: ConfigInput[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `${workspaceFolder}` is where the file's project is: known on import only, so it is filled in then. */
function fillWorkspace(value: unknown, workspace: string | undefined): unknown {
  if (workspace === undefined) return value;
  if (typeof value === 'string') return value.replaceAll('${workspaceFolder}', workspace);
  if (Array.isArray(value)) return value.map((v) => fillWorkspace(v, workspace));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillWorkspace(v, workspace)]));
  return value;
}

/** Names listed for pass-through from the environment (Codex `env_vars`, Goose `env_keys`). */
function passThrough(names: unknown): Record<string, string> {
  if (!Array.isArray(names)) return {};
  return Object.fromEntries(names.filter((n) => typeof n === 'string').map((n) => [n, `\${env:${n}}`]));
}

function vscodeInputs(raw: unknown): ConfigInput[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).flatMap((input) =>
    typeof input.id === 'string'
      ? [
          {
            id: input.id,
            description: typeof input.description === 'string' ? input.description : input.id,
            password: input.password === true,
          },
        ]
      : [],
  );
}

function fromCodex(doc: Obj): ForeignConfig {
  const out: ForeignConfig = { format: 'codex', servers: {}, skipped: [], inputs: [] };
  const servers = doc.mcp_servers;
  if (!isObj(servers)) throw new HostError('config', 'the imported file has no [mcp_servers.<name>] tables (Codex)');
  for (const [name, raw] of Object.entries(servers)) {
    if (!isObj(raw)) {
      out.skipped.push({ name, reason: 'is not a table' });
      continue;
    }
    if (raw.enabled === false) {
      out.skipped.push({ name, reason: 'is disabled in the imported file (enabled = false)' });
      continue;
    }
    if (typeof raw.url === 'string') {
      const headers: Obj = { ...(isObj(raw.http_headers) ? raw.http_headers : {}) };
      if (isObj(raw.env_http_headers))
        for (const [header, variable] of Object.entries(raw.env_http_headers))
          if (typeof variable === 'string') headers[header] = `\${env:${variable}}`;
      if (typeof raw.bearer_token_env_var === 'string')
        headers.Authorization = `Bearer \${env:${raw.bearer_token_env_var}}`;
      out.servers[name] = { url: raw.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
      continue;
    }
    const env = { ...passThrough(raw.env_vars), ...(isObj(raw.env) ? raw.env : {}) };
    out.servers[name] = {
      command: raw.command,
      ...(raw.args !== undefined ? { args: raw.args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
    };
  }
  return out;
}

function fromGoose(doc: Obj): ForeignConfig {
  const out: ForeignConfig = { format: 'goose', servers: {}, skipped: [], inputs: [] };
  const extensions = doc.extensions;
  if (!isObj(extensions)) throw new HostError('config', 'the imported file has no "extensions" (Goose config.yaml)');
  for (const [name, raw] of Object.entries(extensions)) {
    if (!isObj(raw)) {
      out.skipped.push({ name, reason: 'is not a mapping' });
      continue;
    }
    if (raw.enabled === false) {
      out.skipped.push({ name, reason: 'is disabled in the imported file (enabled: false)' });
      continue;
    }
    const env = { ...passThrough(raw.env_keys), ...(isObj(raw.envs) ? raw.envs : {}) };
    switch (raw.type) {
      case 'stdio':
        out.servers[name] = {
          command: raw.cmd,
          ...(raw.args !== undefined ? { args: raw.args } : {}),
          ...(Object.keys(env).length > 0 ? { env } : {}),
        };
        break;
      case 'streamable_http':
        out.servers[name] = {
          url: raw.uri,
          ...(isObj(raw.headers) ? { headers: raw.headers } : {}),
        };
        break;
      case 'sse':
        out.skipped.push({ name, reason: 'uses the deprecated HTTP+SSE transport, which is not supported' });
        break;
      default:
        out.skipped.push({
          name,
          reason: `is a Goose extension of type ${JSON.stringify(raw.type)}, not an MCP server Countersign can start`,
        });
    }
  }
  return out;
}

/** The folder a project config belongs to: `<project>/.vscode/mcp.json`, `<project>/.cursor/mcp.json`. */
export function workspaceOf(path: string | undefined): string | undefined {
  const match = path && /^(.*)[\\/]\.(?:vscode|cursor)[\\/][^\\/]+$/.exec(path);
  return match ? match[1] : undefined;
}

function fromJson(doc: Obj, workspace: string | undefined): ForeignConfig {
  const mcp = isObj(doc.mcp) ? doc.mcp : undefined;
  if (isObj(doc.servers) || (mcp && isObj(mcp.servers))) {
    const servers = (isObj(doc.servers) ? doc.servers : mcp!.servers) as Obj;
    const inputs = vscodeInputs(isObj(doc.servers) ? doc.inputs : mcp!.inputs);
    return { format: 'vscode', servers: fillWorkspace(servers, workspace) as Obj, skipped: [], inputs };
  }
  if (isObj(doc.mcpServers) || isObj(doc.projects)) {
    // ~/.claude.json keeps user servers at the top and project servers per project folder.
    const servers: Obj = {};
    const skipped: ForeignConfig['skipped'] = [];
    if (isObj(doc.mcpServers)) Object.assign(servers, doc.mcpServers);
    if (isObj(doc.projects))
      for (const [folder, project] of Object.entries(doc.projects))
        if (isObj(project) && isObj(project.mcpServers))
          for (const [name, raw] of Object.entries(project.mcpServers)) {
            if (name in servers) skipped.push({ name, reason: `also defined for project ${folder}; the first kept` });
            else servers[name] = fillWorkspace(raw, folder);
          }
    return {
      format: isObj(doc.projects) ? 'claude-code' : 'mcpServers',
      servers: fillWorkspace(servers, workspace) as Obj,
      skipped,
      inputs: [],
    };
  }
  throw new HostError(
    'config',
    'the imported file has no "mcpServers" (Claude Desktop, Cursor, Claude Code), "servers" (VS Code), ' +
      '[mcp_servers] (Codex) or "extensions" (Goose)',
  );
}

/** JSON with comments and trailing commas (VS Code's JSONC); syntax errors name the line and column. */
function parseJsonWithComments(text: string, source: string): unknown {
  const errors: ParseError[] = [];
  const doc: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    throw new HostError('config', `${source}:${line}:${column}: not valid JSON: ${printParseErrorCode(first.error)}`);
  }
  return doc;
}

/**
 * Read a foreign config's text. The format is told by the file name where
 * there is one (`.toml`, `.yaml`), otherwise by the text: JSON(C) first, then
 * TOML, then YAML.
 */
export function readForeignConfig(text: string, fileName?: string): ForeignConfig {
  const source = fileName ?? 'the imported file';
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const named = fileName ?? '';
  const kind = /\.toml$/i.test(named)
    ? 'toml'
    : /\.ya?ml$/i.test(named)
      ? 'yaml'
      : /\.jsonc?$/i.test(named)
        ? 'json'
        : /^\s*\[mcp_servers[.\]]/m.test(body)
          ? 'toml'
          : /^\s*[{[]/.test(body)
            ? 'json'
            : 'yaml';
  let doc: unknown;
  try {
    doc = kind === 'json' ? parseJsonWithComments(body, source) : kind === 'toml' ? parseToml(body) : parseYaml(body);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError('config', `${source}: not valid ${kind.toUpperCase()}: ${messageOf(e).split('\n')[0]}`);
  }
  if (!isObj(doc)) throw new HostError('config', `${source}: must hold an object of servers`);
  if (kind === 'toml') return fromCodex(doc);
  if (kind === 'yaml') return fromGoose(doc);
  return fromJson(doc, workspaceOf(fileName));
}
