// How long agents wait for a human through the gateway, in real time: each
// agent calls a tool whose question the human answers after HUMAN_S seconds
// (default 300), all side by side, with every agent and the gateway on their
// defaults unless the row says otherwise. Every row calls the same tool of
// the 2026-07-28 fixture server, which sets no time limit of its own on its
// question (a 2025-era server's elicitation request has its SDK's 60 s), so
// what ends a call early is the agent. Prints the table docs/agents.md
// shows. Not a test (it takes the human's full time); run it with
//   node --import tsx test/gateway/measure-agent-timeouts.ts [HUMAN_S]
// on Node 22.19+ (MCP Inspector's CLI needs it).
import { makeDataDir, startAgent, startApp, textOf, type Reply } from './harness';
import { INSPECTOR_VERSION, inspectorCall, inspectorCli, nodeRunsInspector } from './inspector-cli';

const humanMs = Number(process.argv[2] ?? 300) * 1000;
if (!nodeRunsInspector()) throw new Error('run this on Node 22.19 or newer (MCP Inspector needs it)');
const cli = inspectorCli();
const { dataDir } = makeDataDir({ modern: 'modern', legacy: 'legacy' });
const app = await startApp(dataDir);
const slowHuman: Reply = async (q) => {
  await new Promise((r) => setTimeout(r, humanMs));
  return app.removed.some((r) => r.questionId === q.id) ? undefined : { action: 'accept' };
};

interface Row {
  agent: string;
  setup: string;
  run: () => Promise<{ ok: boolean; ms: number; note: string }>;
}

/** The SDK 2.x client over stdio, as the harness's agents are. */
const sdkRow = (
  era: 'modern' | 'legacy',
  setup: string,
  opts: { gatewayArgs?: string[]; progress?: boolean } = {},
): Row => ({
  agent: `SDK 2.x client (${era === 'modern' ? '2026-07-28' : '2025-11-25'})`,
  setup,
  run: async () => {
    // The harness's progress interval is for fast tests; this runs on the gateway's default (5 s).
    const agent = await startAgent(dataDir, {
      era,
      env: { COUNTERSIGN_GATEWAY_PROGRESS_MS: '5000' },
      ...(opts.gatewayArgs ? { args: opts.gatewayArgs } : {}),
    });
    const started = Date.now();
    try {
      const r = await agent.client.callTool(
        { name: 'modern__confirm_delete', arguments: { entryId: 7 } },
        opts.progress ? { resetTimeoutOnProgress: true, onprogress: () => undefined } : {},
      );
      return { ok: textOf(r) === 'deleted entry 7', ms: Date.now() - started, note: textOf(r) };
    } catch (e) {
      return { ok: false, ms: Date.now() - started, note: (e as Error).message.split('\n')[0]! };
    } finally {
      await agent.close();
    }
  },
});

const inspectorRow = (era: 'modern' | 'legacy', setup: string, gatewayArgs: string[] = []): Row => ({
  agent: `MCP Inspector ${INSPECTOR_VERSION} CLI (${era === 'modern' ? '2026-07-28' : '2025-11-25'})`,
  setup,
  run: async () => {
    const r = await inspectorCall(cli, dataDir, { era, tool: 'modern__confirm_delete', gatewayArgs });
    const ok = r.code === 0 && r.stdout.includes('deleted entry 7');
    // Its result or error is one JSON line; its stderr also has keychain notices.
    const lines = (r.stdout + r.stderr).split('\n');
    const why =
      lines.find((l) => l.startsWith('{"error"')) ?? lines.find((l) => /timed? ?out/i.test(l)) ?? `exit ${r.code}`;
    return { ok, ms: r.ms, note: why.trim().slice(0, 120) };
  },
});

const rows: Row[] = [
  sdkRow('modern', 'defaults'),
  sdkRow('modern', 'gateway --keep-alive 0', { gatewayArgs: ['--keep-alive', '0'] }),
  sdkRow('legacy', 'defaults'),
  sdkRow('legacy', 'resetTimeoutOnProgress + onprogress', { progress: true }),
  inspectorRow('modern', 'defaults'),
  inspectorRow('modern', 'gateway --keep-alive 0', ['--keep-alive', '0']),
  inspectorRow('legacy', 'defaults'),
];
app.reply(...rows.map(() => slowHuman));
const results = await Promise.all(rows.map((r) => r.run()));
console.log(`human answers after ${humanMs / 1000} s; all rows side by side in one run\n`);
console.log('| agent | setup | outcome | ended after |');
console.log('| --- | --- | --- | --- |');
rows.forEach((row, i) => {
  const r = results[i]!;
  const outcome = r.ok ? 'survived: the answer reached the server' : `gave up: ${r.note}`;
  console.log(`| ${row.agent} | ${row.setup} | ${outcome} | ${(r.ms / 1000).toFixed(1)} s |`);
});
await app.close();
process.exit(0);
