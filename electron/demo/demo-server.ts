// The demo MCP server shipped with Countersign, so the app is useful within
// a minute of starting: Kimai-style time tracking tools that ask the human
// before they book, delete, deploy or connect a calendar. Runs over stdio.
//
//   node --import tsx electron/demo/demo-server.ts
//     both eras: 2026-07-28 MRTR, or 2025 if the host sends initialize
//   node --import tsx electron/demo/demo-server.ts --legacy
//     refuses server/discover, so hosts fall back to the 2025 era
//
// stdout is the protocol channel: everything human-readable goes to stderr.
import { randomBytes } from 'node:crypto';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConsentSite } from './consent-site';
import { buildLegacyDemo } from './legacy-tools';
import { buildModernDemo } from './modern-tools';
import { refuseDiscover } from './refuse-discover';
import type { DemoDeps } from './tool-specs';

function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function main(): void {
  const legacyOnly = process.argv.slice(2).includes('--legacy');
  const deps: DemoDeps = {
    consent: new ConsentSite(),
    urlWaitMs: envMs('COUNTERSIGN_DEMO_URL_WAIT_MS', 30_000),
    legacyUrlWaitMs: envMs('COUNTERSIGN_DEMO_LEGACY_URL_WAIT_MS', 5 * 60_000),
  };
  // One key for the whole process: every round of a flow reaches this process.
  const stateKey = randomBytes(32);
  const transport = new StdioServerTransport();
  serveStdio(({ era }) => (era === 'legacy' ? buildLegacyDemo(deps) : buildModernDemo(deps, stateKey)), {
    transport: legacyOnly ? refuseDiscover(transport) : transport,
    onerror: (error) => process.stderr.write(`countersign-demo: ${error.message}\n`),
  });
  // The host closed our stdin: stop the consent page too, so nothing lingers.
  process.stdin.once('end', () => {
    void deps.consent.close().finally(() => process.exit(0));
  });
}

main();
