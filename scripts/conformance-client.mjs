#!/usr/bin/env node
// @ts-check
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
import { existsSync } from 'node:fs';

// The runner (scripts/conformance-run.mjs) bundles the adapter once per run
// (esbuild) and names the bundle here, so 25 parallel scenario clients do
// not each compile the TypeScript sources; run by hand, tsx compiles them.
const bundle = process.env.COUNTERSIGN_ADAPTER_BUNDLE;
if (bundle && existsSync(bundle)) {
  await import(new URL(`file://${bundle}`).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./conformance/adapter.ts', import.meta.url).href);
}
