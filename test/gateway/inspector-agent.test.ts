// MCP Inspector's CLI (the published package, pinned) as the agent, through
// the gateway as a real process: accept, decline and cancel in both eras, and
// as a 2026-07-28 agent with the keep-alive shrunk to 1 s
// and a human who takes 4 s: Inspector follows each state-only result with a
// repeat (its own multi round-trip loop, up to 10 rounds), and the answer
// reaches the server. The real-time figures for Inspector and the SDK client
// (a five-minute human, every agent on its defaults) are in docs/agents.md,
// from test/gateway/measure-agent-timeouts.ts.
//
// Inspector 2.12 needs Node 22.19 or newer; on an older Node this file runs
// in `npm test`'s Node 24 pass only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir, startApp, type App } from './harness';
import { INSPECTOR_VERSION, inspectorCall, inspectorCli, nodeRunsInspector } from './inspector-cli';

let app: App;
let dataDir: string;
let cli: string;

beforeAll(async () => {
  if (!nodeRunsInspector()) return;
  cli = inspectorCli();
  ({ dataDir } = makeDataDir({ modern: 'modern' }));
  app = await startApp(dataDir);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe.runIf(nodeRunsInspector())(`MCP Inspector ${INSPECTOR_VERSION}'s CLI as the agent`, () => {
  it('follows the keep-alive results while the human decides, and gets the final result', async () => {
    const shown = app.nextQuestion();
    app.reply(async () => {
      await new Promise((r) => setTimeout(r, 4_000));
      return { action: 'accept' };
    });
    const run = await inspectorCall(cli, dataDir, {
      era: 'modern',
      tool: 'modern__confirm_delete',
      // No progress in between: the repeats alone carry the call.
      gatewayEnv: { COUNTERSIGN_GATEWAY_KEEP_ALIVE_MS: '1000', COUNTERSIGN_GATEWAY_PROGRESS_MS: '3600000' },
    });
    expect(run.stdout, run.stderr).toContain('deleted entry 7');
    expect(run.code).toBe(0);
    // The question reached the human once; Inspector's output has nothing of it.
    expect((await shown).message).toBe('Delete time entry 7?');
    expect(app.shown.filter((q) => q.message === 'Delete time entry 7?')).toHaveLength(1);
    expect(run.stdout + run.stderr).not.toContain('Delete time entry');
    expect(run.stdout + run.stderr).not.toContain('requestState');
  }, 60_000);

  it.each([
    ['modern', 'decline', 'declined by the user, nothing was deleted'],
    ['modern', 'cancel', 'cancelled, nothing was deleted'],
    ['legacy', 'accept', 'deleted entry 7'],
    ['legacy', 'decline', 'declined by the user, nothing was deleted'],
  ] as const)(
    "%s era: the human answers %s, and Inspector gets only the server's result",
    async (era, action, text) => {
      app.reply({ action });
      const run = await inspectorCall(cli, dataDir, { era, tool: 'modern__confirm_delete' });
      expect(run.stdout, run.stderr).toContain(text);
      expect(run.stdout + run.stderr).not.toContain('Delete time entry');
    },
    60_000,
  );
});
