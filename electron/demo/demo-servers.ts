// The server entries that run the shipped demo server: written to a fresh
// servers.json on first start, so a new install has something to try.
// In the source tree the TypeScript entry runs through tsx; a packaged or
// bundled build ships dist/demo/demo-server.mjs instead.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerEntry } from '../core/config/server-config';
import { noInspectorFlags } from '../core/no-inspector';

/**
 * Names of the two demo entries in servers.json. Not "Demo (Kimai-style)":
 * server names (UI labels, history keys, gateway prefixes) allow no parentheses.
 */
export const DEMO_SERVER_NAME = 'Demo Kimai-style';
export const DEMO_LEGACY_SERVER_NAME = 'Demo legacy';

/** How to start the demo server: the program and the arguments before the demo's own flags. */
export interface DemoLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
  kind: 'source' | 'bundled';
}

const BUNDLED = join('dist', 'demo', 'demo-server.mjs');

/**
 * Finds the demo server: the .ts source next to this module (source tree),
 * else, walking up from a bundled copy of this code, a bundled
 * dist/demo/demo-server.mjs, else the source tree's electron/demo (a
 * bundled main process run from a checkout). `from` is where to start.
 */
export function demoLaunch(
  from: string = dirname(fileURLToPath(import.meta.url)),
  execPath: string = process.execPath,
): DemoLaunch | null {
  // Electron's binary only behaves as node with this variable; plain node ignores it.
  const asNode = process.versions.electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {};
  // SIGUSR1 opens no inspector in the demo, from its first instant (core/no-inspector.ts).
  const guard = execPath === process.execPath ? noInspectorFlags() : [];
  const fromSource = (file: string): DemoLaunch | null => {
    // The absolute loader URL: a bare "tsx" would be resolved against the
    // server's working folder, which is wherever the host was started.
    let tsx: string;
    try {
      tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    } catch {
      return null;
    }
    return { command: execPath, args: [...guard, '--import', tsx, file], ...asNode, kind: 'source' };
  };
  const beside = join(from, 'demo-server.ts');
  if (existsSync(beside)) return fromSource(beside);
  for (let dir = from; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, BUNDLED), join(dir, 'demo', 'demo-server.mjs')]) {
      if (existsSync(candidate)) return { command: execPath, args: [...guard, candidate], ...asNode, kind: 'bundled' };
    }
    const source = join(dir, 'electron', 'demo', 'demo-server.ts');
    if (existsSync(source)) return fromSource(source);
    if (dir === parse(dir).root) return null;
  }
}

/** The two demo entries ("Demo Kimai-style" and "Demo legacy"), or none when the demo is not shipped. */
export function demoServers(launch: DemoLaunch | null = demoLaunch()): Record<string, ServerEntry> {
  if (!launch) return {};
  const entry = (extra: string[]): ServerEntry => ({
    command: launch.command,
    args: [...launch.args, ...extra],
    ...(launch.env ? { env: { ...launch.env } } : {}),
  });
  return { [DEMO_SERVER_NAME]: entry([]), [DEMO_LEGACY_SERVER_NAME]: entry(['--legacy']) };
}
