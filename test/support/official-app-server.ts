// The official MCP Apps example servers, pinned, fetched by the tests that
// use them: `npm pack` (the npm registry, through its ordinary client) into
// the git-ignored .cache/, unpacked once. The examples ship as one bundled
// file each, so nothing else is installed and the same files serve every run.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../browser/paint-latency';

const run = promisify(execFile);

/**
 * The pinned examples (npm name → version). Each runs offline: its server bundles its dependencies and fetches
 * nothing (system-monitor reads this machine's /proc), and its app loads nothing from the network.
 */
export const OFFICIAL_APP_SERVERS = {
  '@modelcontextprotocol/server-basic-react': '2.0.3',
  '@modelcontextprotocol/server-basic-vanillajs': '2.0.3',
  '@modelcontextprotocol/server-system-monitor': '2.0.3',
} as const;
export type OfficialAppServer = keyof typeof OFFICIAL_APP_SERVERS;

/** The stdio command of a pinned example, fetching it first if this machine has not yet. */
export async function officialAppServer(name: OfficialAppServer): Promise<{ command: string; args: string[] }> {
  const version = OFFICIAL_APP_SERVERS[name];
  const dir = join(repoRoot, '.cache', 'official-app-servers', `${name.replace('/', '+')}@${version}`);
  const entry = join(dir, 'package', 'dist', 'index.js');
  if (!existsSync(entry)) {
    const work = `${dir}.partial-${process.pid}`;
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const { stdout } = await run('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', work], {
      cwd: work,
      timeout: 120_000,
    });
    await run('tar', ['-xzf', join(work, stdout.trim().split('\n').pop()!), '-C', work]);
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir);
  }
  return { command: process.execPath, args: [entry, '--stdio'] };
}
