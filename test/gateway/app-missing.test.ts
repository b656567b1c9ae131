// No app to ask: the gateway either starts one (and the human answers there)
// or ends the call with one clear sentence; in no case does the agent get
// the question, and nothing is answered on the human's behalf.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readWireLog } from '../fixtures/spawn-fixture';
import { leaks, makeDataDir, serverFinalStrings, startAgent, startApp, textOf, tsxLoader, type App } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];

/** Name the app the gateway starts, where the gateway reads it: the data folder. */
function appCommand(dataDir: string, command: string[]): void {
  writeFileSync(join(dataDir, 'app-command.json'), JSON.stringify({ command }));
}
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('when no app is running', () => {
  it('with starting turned off: a question ends the call with "approval app not running, nothing was done"; plain calls still work', async () => {
    const { dataDir, wireLogs } = makeDataDir({ modern: 'modern', legacy: 'legacy' });
    const agent = await startAgent(dataDir, { env: { COUNTERSIGN_GATEWAY_AUTOSTART: '0' } });
    cleanups.push(() => agent.close());
    for (const server of ['modern', 'legacy']) {
      const r = await agent.client.callTool({ name: `${server}__confirm_delete`, arguments: { entryId: 9 } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^Countersign: approval app not running, nothing was done: /);
      expect(r._meta).toMatchObject({
        'io.countersign/host-generated': true,
        'io.countersign/host-error': 'approval-app-unavailable',
      });
    }
    // The modern server was never answered: one tools/call, no retry.
    const calls = readWireLog(wireLogs.modern!).filter((e) => e.dir === 'in' && e.msg?.method === 'tools/call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.msg.params).not.toHaveProperty('inputResponses');
    expect(textOf(await agent.client.callTool({ name: 'modern__echo', arguments: { text: 'still here' } }))).toBe(
      'still here',
    );
    const strings = new Set([...serverFinalStrings(wireLogs.modern!), ...serverFinalStrings(wireLogs.legacy!)]);
    expect(leaks(agent.received, ['Delete time entry 9?'], strings)).toEqual([]);
  });

  it('starts the app named in app-command.json, waits for it, and the human answers there', async () => {
    const { dataDir } = makeDataDir({ modern: 'modern' });
    cleanups.push(() => {
      const pidFile = join(dataDir, 'fake-app.pid');
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    });
    appCommand(dataDir, [process.execPath, '--import', tsxLoader, join(here, 'fake-app.ts')]);
    const agent = await startAgent(dataDir, { env: { COUNTERSIGN_GATEWAY_AUTOSTART: '1' } });
    cleanups.push(() => agent.close());
    const r = await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 10 } });
    expect(textOf(r)).toBe('declined by the user, nothing was deleted');
    expect(agent.stderr()).toContain('starting it (app-command.json)');
    // Once running, the app is simply used.
    expect(textOf(await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 11 } }))).toBe(
      'declined by the user, nothing was deleted',
    );
  });

  it('says so at once when the app cannot be started; an app command in the environment is never run', async () => {
    const { dataDir } = makeDataDir({ modern: 'modern' });
    appCommand(dataDir, [process.execPath, '-e', 'process.exit(3)']);
    // What an agent (which launches the gateway and so picks its environment) would try: its own "app".
    const marker = join(dataDir, 'agent-app-ran');
    const agentApp = [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`];
    const agent = await startAgent(dataDir, {
      env: { COUNTERSIGN_GATEWAY_AUTOSTART: '1', COUNTERSIGN_APP_COMMAND: JSON.stringify(agentApp) },
    });
    cleanups.push(() => agent.close());
    const r = await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 12 } });
    expect(textOf(r)).toBe(
      'Countersign: approval app not running, nothing was done: Countersign could not start its app (app-command.json exited with code 3)',
    );
    expect(existsSync(marker)).toBe(false);
    expect(agent.stderr()).toContain('COUNTERSIGN_APP_COMMAND is ignored');
  });

  it('an app that closes while a question is open withdraws it; the agent is told nothing was sent', async () => {
    const { dataDir } = makeDataDir({ modern: 'modern' });
    const app: App = await startApp(dataDir);
    const agent = await startAgent(dataDir);
    cleanups.push(() => agent.close());
    const shown = app.nextQuestion();
    const pending = agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 13 } });
    const q = await shown;
    await app.close();
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Countersign: the question was withdrawn in the Countersign app before the user answered; nothing was sent to the server',
    );
    expect(app.history.answers.find((a) => a.question.id === q.id)).toMatchObject({
      answer: { action: 'cancel' },
      decidedBy: 'call-cancelled',
    });
  });
});
