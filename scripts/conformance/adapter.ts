// The conformance adapter's logic; scripts/conformance-client.mjs starts it (see there).
// The conformance ADAPTER: what the official MCP conformance suite runs as
// "the client" (`node scripts/conformance-client.mjs [exercise flags] <server-url>`).
// Like the official SDKs' conformance clients it reads the suite's
// MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT; Countersign's product
// code never does. It only supplies what a scenario hands a client from
// outside:
//   - the server's config entry (a pre-registered client, client
//     credentials) from MCP_CONFORMANCE_CONTEXT, written to a temporary
//     servers.json that the product reads the normal way;
//   - a stand-in for the human and the browser: it consents to the sign-in
//     question and, as the browser would, fetches the authorization link
//     (the suite's authorization server redirects at once; fetch with
//     redirect: 'manual') and then follows the redirect to the core's own
//     loopback listener, which checks state and hands the code to the core;
//   - the json-schema-2020-12-preservation echo (the scenario asks a client
//     to pass one tool's inputSchema to another tool).
// Everything else (discovery, registration, PKCE, state, iss, resource,
// scopes, step-up, refresh, TLS and host checks) is the core's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseElicitSpec, ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { runExerciseCommand } from '../../electron/cli/exercise-command';
import { processIo } from '../../electron/cli/io';
import { MemoryCredentialStore } from '../../electron/core/auth/credential-store';
import type { HttpServerEntry, OAuthSettings } from '../../electron/core/config/server-config';
import { Host } from '../../electron/core/host';

const argv = process.argv.slice(2);
const serverUrl = argv.at(-1) ?? '';
const flags = argv.slice(0, -1);
if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
  console.error('usage: node scripts/conformance-client.mjs [exercise flags] <server-url>');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
let context: Record<string, string | undefined> = {};
try {
  context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
} catch {
  context = {};
}

// The client ID metadata document URL the suite's CIMD scenarios expect, given
// the way the app's setting gives it (used only when the server supports CIMD).
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** The sign-in settings a user would write in the server's `oauth` entry. */
function oauthFor(name: string, ctx: Record<string, string | undefined>): OAuthSettings | undefined {
  switch (name) {
    case 'auth/pre-registration':
      return { clientId: ctx.client_id, clientSecret: ctx.client_secret };
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: ctx.client_id, clientSecret: ctx.client_secret };
    case 'auth/client-credentials-jwt':
      return {
        grant: 'client_credentials',
        clientId: ctx.client_id,
        privateKey: ctx.private_key_pem,
        signingAlgorithm: ctx.signing_algorithm ?? 'ES256',
      };
    default:
      return undefined;
  }
}

/** The browser's part: load the authorization link and follow its redirect. */
async function headlessBrowser(link: string): Promise<void> {
  const res = await fetch(link, { redirect: 'manual' });
  await res.text().catch(() => undefined);
  const location = res.headers.get('location');
  if (!location) throw new Error(`the authorization server answered HTTP ${res.status} without a redirect`);
  const back = await fetch(new URL(location, link), { redirect: 'manual' });
  await back.text().catch(() => undefined);
}

const io = processIo();

async function schemaEcho() {
  const host = new Host({
    servers: { conformance: { url: serverUrl } },
    prompter: new ScriptedPrompter([], parseElicitSpec('accept-defaults')),
  });
  try {
    const tools = await host.listTools('conformance');
    const focal = tools.find((t) => t.name !== 'json_schema_echo');
    await host.call({
      server: 'conformance',
      method: 'tools/call',
      name: 'json_schema_echo',
      arguments: { schema: focal?.inputSchema ?? {} },
    });
    return 0;
  } finally {
    await host.close();
  }
}

async function exercise() {
  const dir = mkdtempSync(join(tmpdir(), 'countersign-conformance-'));
  try {
    const entry: HttpServerEntry = { url: serverUrl };
    const oauth = oauthFor(scenario, context);
    if (oauth) entry.oauth = oauth;
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { conformance: entry } }), { mode: 0o600 });
    return await runExerciseCommand([...flags, '--server', 'conformance', '--config', config], io, {
      signIn: {
        // Scenarios run in parallel and must not share sign-ins: memory only.
        store: new MemoryCredentialStore(),
        clientMetadataUrl: CIMD_URL,
        signIn: () => Promise.resolve('open' as const),
        open: headlessBrowser,
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let code = 2;
try {
  code = scenario === 'json-schema-2020-12-preservation' ? await schemaEcho() : await exercise();
} catch (e) {
  console.error(`conformance-client: ${e instanceof Error ? e.message : String(e)}`);
  code = 2;
}
process.exit(code);
