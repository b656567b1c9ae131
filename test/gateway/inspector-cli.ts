// MCP Inspector's CLI (the published @modelcontextprotocol/inspector, pinned)
// as an agent of the gateway: one `--method tools/call` run, configured the
// way a user would, in its own mcp.json. Its CLI gives every request the
// SDK's 60 s and sends no progress token (it builds its client with
// `progress: false`), so it hears nothing while a question waits.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinnedPackage } from '../support/pinned-package';
import { GATEWAY_ENTRY, tsxLoader } from './harness';

export const INSPECTOR_VERSION = '2.12.0';

/** Inspector 2.12 needs Node 22.19 or newer. */
export function nodeRunsInspector(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 19);
}

/** The CLI's entry file (installed into .cache/pinned on first use). */
export function inspectorCli(): string {
  const dir = pinnedPackage('@modelcontextprotocol/inspector', INSPECTOR_VERSION);
  return join(dir, 'clients', 'cli', 'build', 'index.js');
}

export interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** One tools/call (`entryId=7`) through a gateway on `dataDir`, started by Inspector as its stdio server. */
export function inspectorCall(
  cli: string,
  dataDir: string,
  options: { era: 'modern' | 'legacy'; tool: string; gatewayArgs?: string[]; gatewayEnv?: Record<string, string> },
): Promise<InspectorRun> {
  const home = mkdtempSync(join(tmpdir(), 'cs-insp-'));
  const config = join(home, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        countersign: {
          command: process.execPath,
          args: ['--import', tsxLoader, GATEWAY_ENTRY, ...(options.gatewayArgs ?? [])],
          env: { COUNTERSIGN_DATA_DIR: dataDir, COUNTERSIGN_GATEWAY_AUTOSTART: '0', ...options.gatewayEnv },
          protocolEra: options.era,
        },
      },
    }),
  );
  const args = [cli, '--config', config, '--server', 'countersign', '--method', 'tools/call'];
  args.push('--tool-name', options.tool, '--tool-arg', 'entryId=7');
  const started = Date.now();
  return new Promise((resolve) => {
    // HOME: Inspector keeps a catalog and auth state there; each run gets its own.
    execFile(process.execPath, args, { timeout: 15 * 60_000, env: { ...process.env, HOME: home } }, (e, out, err) =>
      resolve({
        code: e ? Number((e as { code?: unknown }).code ?? 1) || 1 : 0,
        stdout: out,
        stderr: err,
        ms: Date.now() - started,
      }),
    );
  });
}
