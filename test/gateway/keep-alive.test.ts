// A 2026-07-28 agent (the real SDK 2.x client, over stdio to the gateway as a
// real process) whose per-request timeout is shorter than the human takes.
// The gateway ends each of its requests in time with a result that carries
// only its own handle, the SDK repeats the request, and the call lives on
// until the human answers. Times are shrunk: a 1.5 s agent timeout, a 0.4 s
// keep-alive, a human who takes 4 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWireLog } from '../fixtures/spawn-fixture';
import { leaks, makeDataDir, startAgent, startApp, textOf, type App } from './harness';

const AGENT_TIMEOUT_MS = 1_500;
const HUMAN_MS = 4_000;

let app: App;
let dataDir: string;
let wireLog: string;
const agents: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  const made = makeDataDir({ modern: 'modern' });
  dataDir = made.dataDir;
  wireLog = made.wireLogs.modern!;
  app = await startApp(dataDir);
});

afterAll(async () => {
  for (const a of agents) await a.close();
  await app?.close();
});

const agent = async (env: Record<string, string> = {}, args: string[] = []) => {
  const a = await startAgent(dataDir, {
    era: 'modern',
    env: { COUNTERSIGN_GATEWAY_KEEP_ALIVE_MS: '400', ...env },
    args,
  });
  agents.push(a);
  // As agents do: list first, which starts the server, so that the short timeout below is only the human's.
  await a.client.listTools();
  return a;
};

const slowAccept = () =>
  app.reply(async () => {
    await new Promise((r) => setTimeout(r, HUMAN_MS));
    return { action: 'accept' };
  });

/** The gateway's keep-alive results among what the agent received. */
const keepAlives = (received: readonly any[]) =>
  received.filter((m) => m?.result?.resultType === 'input_required').map((m) => m.result);

describe('a 2026-07-28 agent with a fixed request timeout, while the human takes longer', () => {
  it('keeps the call alive across repeated requests, and the answer reaches the server', async () => {
    const a = await agent();
    slowAccept();
    const from = a.received.length;
    const result = await a.client.callTool(
      { name: 'modern__confirm_delete', arguments: { entryId: 7 } },
      { timeout: AGENT_TIMEOUT_MS },
    );
    expect(textOf(result)).toBe('deleted entry 7');
    expect(app.history.answers.at(-1)).toMatchObject({ decidedBy: 'human', answer: { action: 'accept' } });
    const received = a.received.slice(from);
    const legs = keepAlives(received);
    // 4 s of human at 0.4 s per leg: several legs, each only the handle (a new one every time).
    expect(legs.length).toBeGreaterThanOrEqual(3);
    for (const { _meta, ...leg } of legs) {
      // Only the handle, plus the serverInfo the SDK stamps on every 2026-07-28 result.
      expect(Object.keys(leg).sort()).toEqual(['requestState', 'resultType']);
      expect(Object.keys(_meta ?? {})).toEqual(['io.modelcontextprotocol/serverInfo']);
    }
    expect(new Set(legs.map((l) => l.requestState)).size).toBe(legs.length);
    // The server's own requestState never reaches the agent; nor does anything of the question.
    const serverStates = new Set(
      readOut(wireLog)
        .map((m) => m.result?.requestState)
        .filter((s): s is string => typeof s === 'string'),
    );
    expect(serverStates.size).toBeGreaterThan(0);
    for (const leg of legs) expect(serverStates.has(leg.requestState)).toBe(false);
    const rest = received.filter((m) => m?.result?.resultType !== 'input_required');
    expect(leaks(rest, ['Delete time entry 7?'], new Set(['deleted entry 7']))).toEqual([]);
    expect(JSON.stringify(legs)).not.toContain('Delete time entry');
  });

  it('keeps a prompt read alive the same way', async () => {
    const a = await agent();
    const { prompts } = await a.client.listPrompts();
    const asking = prompts.find((p) => p.name.startsWith('modern__'));
    expect(asking).toBeDefined();
    slowAccept();
    const from = a.received.length;
    const prompt = await a.client.getPrompt({ name: asking!.name, arguments: {} }, { timeout: AGENT_TIMEOUT_MS });
    expect(prompt.messages.length).toBeGreaterThan(0);
    expect(keepAlives(a.received.slice(from)).length).toBeGreaterThanOrEqual(3);
  });

  it('without the keep-alive (--keep-alive 0) the same agent times out and the question is withdrawn', async () => {
    const a = await agent({}, ['--keep-alive', '0']);
    const removal = app.nextRemoval();
    app.reply(() => undefined); // the human never answers here
    await expect(
      a.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 8 } }, { timeout: AGENT_TIMEOUT_MS }),
    ).rejects.toThrow(/timed out|timeout/i);
    expect(await removal).toMatchObject({ reason: 'call-cancelled' });
  });

  it('an agent that does not repeat its request: the call is cancelled with that reason, and its handle is dead', async () => {
    const a = await agent({ COUNTERSIGN_GATEWAY_KEEP_ALIVE_GRACE_MS: '1000' });
    const removal = app.nextRemoval();
    app.reply(() => undefined);
    // Manual mode: the agent gets the keep-alive result itself and does not repeat.
    const first = (await a.client.callTool(
      { name: 'modern__confirm_delete', arguments: { entryId: 9 } },
      { allowInputRequired: true, timeout: 10_000 },
    )) as unknown as Record<string, unknown>;
    expect(first.resultType).toBe('input_required');
    // The SDK's manual mode hands over an empty map for a result that had none.
    expect(first.inputRequests ?? {}).toEqual({});
    expect(typeof first.requestState).toBe('string');
    expect(await removal).toMatchObject({ reason: 'call-cancelled' });
    await expectEnded(/^the agent stopped waiting: it did not repeat its request within 1 s$/);
    // Too late: the handle was for one repeat, within the grace time.
    await expect(
      a.client.callTool(
        { name: 'modern__confirm_delete', arguments: { entryId: 9 }, requestState: first.requestState } as never,
        { allowInputRequired: true },
      ),
    ).rejects.toThrow(/Nothing to resume: the gateway holds no call for this handle/);
  });

  it('a handle is refused for another call, and the held call goes on', async () => {
    const a = await agent({ COUNTERSIGN_GATEWAY_KEEP_ALIVE_GRACE_MS: '20000' });
    const question = app.nextQuestion();
    app.reply(() => undefined);
    const first = (await a.client.callTool(
      { name: 'modern__confirm_delete', arguments: { entryId: 10 } },
      { allowInputRequired: true, timeout: 10_000 },
    )) as unknown as Record<string, unknown>;
    const q = await question;
    await expect(
      a.client.callTool(
        { name: 'modern__typed_confirm', arguments: { entryId: 10 }, requestState: first.requestState } as never,
        { allowInputRequired: true },
      ),
    ).rejects.toThrow(/Nothing to resume: the gateway holds no call for this handle/);
    // The right repeat still finds the call; the human's answer then ends it.
    const again = a.client.callTool(
      { name: 'modern__confirm_delete', arguments: { entryId: 10 }, requestState: first.requestState } as never,
      { timeout: 10_000 },
    );
    await app.answer(q.id, { action: 'decline' });
    expect(textOf(await again)).toBe('declined by the user, nothing was deleted');
  });
});

/** Every message the fixture server sent, from its wire log. */
function readOut(log: string): any[] {
  return readWireLog(log)
    .filter((e) => e.dir === 'out')
    .map((e) => e.msg);
}

/** Waits for the app's history to record a cancelled call of confirm_delete whose reason matches `error`. */
async function expectEnded(error: RegExp): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const ended = app.history.ended.find((e) => e.call.name === 'confirm_delete' && error.test(e.error ?? ''));
    if (ended) {
      expect(ended.outcome).toBe('cancelled');
      return;
    }
    if (Date.now() > deadline) throw new Error(`no such callEnded: ${JSON.stringify(app.history.ended)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
