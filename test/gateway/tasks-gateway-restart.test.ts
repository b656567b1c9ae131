// A gateway killed and started again (issue 12 gap): the real gateway process
// is SIGKILLed while its agent holds a task handle whose question waits in the
// app; a new gateway process on the same data folder is asked for that handle.
// Task handles stand for calls running inside one gateway process and belong
// to the agent connection that made them, so they are not persisted (see
// docs/agents.md, "Tasks"): the agent gets an error that names the task and
// the reason, never a bare "not found" and never another connection's task.
// Both eras: SDK 2.x carrying the 2026-07-28 Tasks extension, SDK 1.x with
// 2025-11-25 task augmentation, each against the real task fixtures.
import { describe, expect, it } from 'vitest';
import { Client as LegacySdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacySdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as z from 'zod';
import { readWireLog } from '../fixtures/spawn-fixture';
import { GATEWAY_ENTRY, tsxLoader, useTaskGatewayFixtures, connectTaskAgent } from './harness';

const AnyResult = z.looseObject({});

const fx = useTaskGatewayFixtures();

/** A 2026-07-28 agent declaring the Tasks extension, with its own gateway process. */
async function modernAgent() {
  const { transport, wire, client, request } = await connectTaskAgent(fx);
  return {
    pid: transport.pid!,
    close: () => client.close(),
    async start(name: string) {
      const result = await request('tools/call', { name, arguments: {} });
      return wire.takeTaskHandle(result) as { taskId: string } | undefined;
    },
    get: (taskId: string) => request('tasks/get', { taskId }),
    cancel: (taskId: string) => request('tasks/cancel', { taskId }),
  };
}

/** A 2025-11-25 agent (SDK 1.x) with task support, with its own gateway process. */
async function legacyAgent() {
  const transport = new LegacySdkStdio({
    command: process.execPath,
    args: ['--import', tsxLoader, GATEWAY_ENTRY],
    env: fx.gatewayEnv(),
    stderr: 'pipe',
  });
  const client = new LegacySdkClient(
    { name: 'old-task-agent', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {} } } },
  );
  await client.connect(transport);
  fx.closers.push(() => client.close());
  return {
    pid: transport.pid!,
    client,
    async start(name: string) {
      const created = (await client.request(
        { method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 } } },
        z.looseObject({ task: z.looseObject({ taskId: z.string() }) }) as never,
      )) as { task: { taskId: string } };
      return created.task;
    },
  };
}

/** SIGKILL the gateway process (no chance to cancel anything) and wait until it is gone. */
async function kill(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gateway ${pid} did not exit`);
}

const EARLIER = (taskId: string) =>
  new RegExp(
    `Task not found: "${taskId}": it was not made by this Countersign gateway process \\(started \\d{4}-\\d\\d-\\d\\dT[^)]+\\): a task handle belongs to the gateway process and agent connection that made it and does not survive a gateway restart; if that process has ended, the call it stood for ended with it, so call the tool again`,
  );
const NOT_OURS = /Task not found: "[^"]+": it is not a task of this agent connection/;

describe('a gateway restarted while its agent holds a task handle', () => {
  it('2026-07-28: the new gateway names the task and says why it is gone', async () => {
    const before = await modernAgent();
    const shown = fx.app.nextQuestion();
    const task = await before.start('tm__wait_for_approval');
    expect(task?.taskId).toMatch(/^gw[0-9a-f]{8}-/);
    expect((await before.get(task!.taskId)).status).toBe('working');
    expect((await shown).message).toBe('Approve the nightly export?');
    // The app does not keep a dead gateway's question waiting.
    const removal = fx.app.nextRemoval();
    await kill(before.pid);
    await removal;

    const after = await modernAgent();
    await expect(after.get(task!.taskId)).rejects.toThrow(EARLIER(task!.taskId));
    await expect(after.cancel(task!.taskId)).rejects.toThrow(EARLIER(task!.taskId));
    // An id no gateway made reads as not this connection's; a live sibling gateway's (another stdio
    // agent's own process) as another process's: the shape of the id says which, nothing more.
    await expect(after.get('made-up')).rejects.toThrow(NOT_OURS);
    await expect(after.get(`gw00000000-${crypto.randomUUID()}`)).rejects.toThrow(/not made by this Countersign/);
    const sibling = await modernAgent();
    const theirs = await sibling.start('tm__stubborn');
    expect(theirs?.taskId).toMatch(/^gw/);
    await expect(after.get(theirs!.taskId)).rejects.toThrow(EARLIER(theirs!.taskId));
    await sibling.cancel(theirs!.taskId);
  });

  it('2025-11-25: tasks/get and tasks/result after the restart name the task and say why', async () => {
    const before = await legacyAgent();
    const shown = fx.app.nextQuestion();
    const task = await before.start('tl__wait_for_approval');
    await shown;
    const removal = fx.app.nextRemoval();
    await kill(before.pid);
    await removal;

    const after = await legacyAgent();
    await expect(after.client.experimental.tasks.getTask(task.taskId)).rejects.toThrow(EARLIER(task.taskId));
    await expect(
      after.client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult as never),
    ).rejects.toThrow(EARLIER(task.taskId));
    expect((await after.client.experimental.tasks.listTasks()).tasks).toEqual([]);
  });

  it('a gateway that shuts down normally (its agent went away) cancels the server task it was following', async () => {
    const agent = await modernAgent();
    const shown = fx.app.nextQuestion();
    const task = await agent.start('tm__wait_for_approval');
    expect(task?.taskId).toBeTruthy();
    await shown;
    const serverTask = () =>
      readWireLog(fx.wireLogs.tm!)
        .filter((e) => e.dir === 'out' && e.msg?.result?.resultType === 'task')
        .at(-1)?.msg.result.taskId as string | undefined;
    const upstream = serverTask();
    expect(upstream).toBeTruthy();
    const removal = fx.app.nextRemoval();
    await agent.close();
    await removal;
    for (let i = 0; i < 100; i++) {
      if (
        readWireLog(fx.wireLogs.tm!).some(
          (e) => e.dir === 'in' && e.msg?.method === 'tasks/cancel' && e.msg.params.taskId === upstream,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancels = readWireLog(fx.wireLogs.tm!).filter(
      (e) => e.dir === 'in' && e.msg?.method === 'tasks/cancel' && e.msg.params.taskId === upstream,
    );
    expect(cancels).toHaveLength(1);
  });
});
