// Which server a CLI command talks to: `--stdio "<command line>"`, `--url`,
// or `--server <name>` from a config file.
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { parseServerEntry, readServerConfigFile, type ServerEntry } from '../core/config/server-config';
import { terminalText } from '../../shared/terminal-text';
import { HostError } from '../core/host-error';
import { dataDir, defaultConfigPath } from './paths';

export interface TargetFlags {
  stdio?: string;
  url?: string;
  server?: string;
  config?: string;
  name?: string;
}

/** Split a command line like a POSIX shell would, without running a shell. */
export function splitCommandLine(line: string): string[] {
  const parts = parseShell(line);
  const words: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') {
      throw new HostError(
        'config',
        `--stdio ${JSON.stringify(line)}: shell operators are not supported; give one command with its arguments`,
      );
    }
    words.push(p);
  }
  if (words.length === 0) throw new HostError('config', '--stdio: the command line is empty');
  return words;
}

const LAUNCHERS = new Set([
  'node',
  'npx',
  'tsx',
  'python',
  'python3',
  'uv',
  'uvx',
  'deno',
  'bun',
  'docker',
  'pnpm',
  'yarn',
]);

/** A readable server name for an ad-hoc target (shown in dialogs and history). */
export function nameForEntry(entry: ServerEntry): string {
  if ('url' in entry) {
    const u = new URL(entry.url);
    return u.host;
  }
  const command = basename(entry.command);
  if (!LAUNCHERS.has(command.replace(/\.exe$/, ''))) return command;
  // Skip flags and loader URLs (`--import file:///…/tsx/loader.mjs`); prefer
  // the script file itself, else the package name (`npx -y kimai-mcp`).
  const candidates = (entry.args ?? []).filter((a) => !a.startsWith('-') && !a.includes('://') && a !== 'tsx');
  const script = candidates.find((a) => /\.(m?[jt]s|cjs|py)$/.test(a)) ?? candidates[0];
  return script ? basename(script) : command;
}

/** A server picked on the command line. */
export interface ResolvedTarget {
  name: string;
  entry: ServerEntry;
}

/**
 * A --config file inside the data folder is held to the data folder's rule
 * (tightened when loose); one elsewhere must be the user's own and not
 * writable by others, and is never chmod-ed (it may be a project's mcp.json).
 */
function configPlace(file: string, env: NodeJS.ProcessEnv): 'private' | 'own' {
  const inside = relative(resolve(dataDir(env)), resolve(file));
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? 'private' : 'own';
}

/** Resolve the flags to one named server entry. */
export async function resolveTarget(
  flags: TargetFlags,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void = () => undefined,
): Promise<ResolvedTarget> {
  const given = [flags.stdio !== undefined, flags.url !== undefined, flags.server !== undefined].filter(Boolean).length;
  if (given !== 1)
    throw new HostError('config', 'give exactly one of --stdio "<command line>", --url <url> or --server <name>');
  if (flags.stdio !== undefined) {
    const [command, ...args] = splitCommandLine(flags.stdio);
    const entry = parseServerEntry('--stdio', { command, args });
    return { name: flags.name ?? nameForEntry(entry), entry };
  }
  if (flags.url !== undefined) {
    const entry = parseServerEntry('--url', { url: flags.url });
    return { name: flags.name ?? nameForEntry(entry), entry };
  }
  const file = flags.config ?? defaultConfigPath(env);
  const skipped = new Map<string, string>();
  const servers = await readServerConfigFile(file, configPlace(file, env), ({ name, reason }) =>
    skipped.set(name, reason),
  );
  if (!servers) throw new HostError('config', `cannot read config file ${file}: ENOENT`);
  const entry = servers[flags.server!];
  const whySkipped = skipped.get(flags.server!);
  if (whySkipped !== undefined)
    throw new HostError('config', `${file}: server "${flags.server}" cannot be used: ${whySkipped}`);
  for (const [name, reason] of skipped)
    warn(
      `countersign: warning: ${terminalText(file)}: skipped server "${terminalText(name)}": ${terminalText(reason)}`,
    );
  if (!entry)
    throw new HostError(
      'config',
      `${file}: no server named "${flags.server}" (configured: ${Object.keys(servers).join(', ') || 'none'})`,
    );
  return { name: flags.server!, entry };
}
