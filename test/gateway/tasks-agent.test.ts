// Tasks through the gateway (issue 12, the agent side), with the real
// gateway process, the real task fixtures of both eras behind it, the app
// side for real, and real SDK clients as agents: with task support (SDK 1.x
// task augmentation; SDK 2.x carrying the 2026-07-28 Tasks extension) and
// without. Whatever the agent does, every question goes to the human and
// nothing of it (text, schema, the server's status message, requestState,
// the words of the input-required vocabulary) reaches the agent's wire.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacySdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacySdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import {
  GATEWAY_ENTRY,
  leaks,
  startAgent,
  textOf,
  tsxLoader,
  useTaskGatewayFixtures,
  connectTaskAgent,
} from './harness';
import { readWireLog } from '../fixtures/spawn-fixture';

/** Question texts and server status messages of the flows: none may reach an agent. */
const FORBIDDEN = [
  'Deploy billing to production?',
  'Deploy api to production?',
  'Approve the nightly export?',
  'Choose the migration plan.',
  'waiting for an answer to',
  'building billing',
  'rolling out',
];

/** Every status message an agent task may carry: the gateway's own words. */
const GATEWAY_SENTENCES = [
  'waiting for the server',
  'waiting for the user to answer in Countersign',
  'the server is running it as a task (working)',
  'the server is running it as a task (ending)',
  'done',
  'failed',
  'cancelled; nothing more was sent to the server',
];

const fx = useTaskGatewayFixtures({ COUNTERSIGN_GATEWAY_PROGRESS_MS: '150' });

/** Keep every message a transport delivers (set before the client connects). */
function record(transport: { onmessage?: unknown }, received: any[]): void {
  let handler: ((m: any, extra?: any) => void) | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () =>
      handler
        ? (m: any, extra?: any) => {
            received.push(structuredClone(m));
            handler!(m, extra);
          }
        : undefined,
    set: (h: typeof handler) => void (handler = h),
  });
}

/** A 2026-07-28 agent (SDK 2.x) that declares the Tasks extension; task bodies come through the core's task wire. */
async function modernTaskAgent() {
  const received: any[] = [];
  const { transport, wire, client, request } = await connectTaskAgent(fx);
  // Recorded at the edge, before the task wire (everything after the discovery probe).
  const inner = transport.onmessage!;
  transport.onmessage = (m) => {
    received.push(structuredClone(m));
    inner(m);
  };
  return {
    client,
    received,
    /** tools/call: the task body when the gateway answered with a task, else the plain result. */
    async call(name: string, args: Record<string, unknown> = {}) {
      const result = await request('tools/call', { name, arguments: args });
      const task = wire.takeTaskHandle(result);
      return task ? { task } : { result };
    },
    get: (taskId: string) => request('tasks/get', { taskId }),
    cancel: (taskId: string) => request('tasks/cancel', { taskId }),
    update: (taskId: string, inputResponses: Record<string, unknown>) =>
      request('tasks/update', { taskId, inputResponses }),
  };
}

/** A 2025-11-25 agent on the SDK 1.x client, with its task support declared. */
async function legacyTaskAgent() {
  const received: any[] = [];
  const transport = new LegacySdkStdio({
    command: process.execPath,
    args: ['--import', tsxLoader, GATEWAY_ENTRY],
    env: fx.gatewayEnv(),
    stderr: 'pipe',
  });
  record(transport, received);
  const client = new LegacySdkClient(
    { name: 'old-task-agent', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {} } } },
  );
  await client.connect(transport);
  fx.closers.push(() => client.close());
  return { client, received };
}

async function pollUntil(get: () => Promise<Record<string, any>>, done: (t: Record<string, any>) => boolean) {
  const seen: Array<Record<string, any>> = [];
  for (let i = 0; i < 400; i++) {
    const t = await get();
    seen.push(t);
    if (done(t)) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the task did not end: ${JSON.stringify(seen.at(-1))}`);
}

const terminal = (t: Record<string, any>) => ['completed', 'failed', 'cancelled'].includes(t.status);

/** The words of questions the servers actually asked (from their wire logs), so the check cannot pass vacuously. */
function askedTexts(): string[] {
  const out: string[] = [];
  for (const log of Object.values(fx.wireLogs)) {
    for (const e of readWireLog(log)) {
      const m = e.msg;
      if (e.dir === 'out' && m?.method === 'elicitation/create') out.push(m.params?.message);
      const inputs = m?.result?.inputRequests as Record<string, any> | undefined;
      for (const r of Object.values(inputs ?? {})) out.push(r?.params?.message);
    }
  }
  return out.filter((t): t is string => typeof t === 'string');
}

describe('an agent that declares the 2026-07-28 Tasks extension', () => {
  let agent: Awaited<ReturnType<typeof modernTaskAgent>>;
  beforeAll(async () => {
    agent = await modernTaskAgent();
  });

  it('gets a task handle for a call that needs the human; the human answers in the app', async () => {
    fx.app.reply({ action: 'accept', content: {} });
    const first = await agent.call('tm__deploy', { service: 'billing' });
    expect(first.task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number) });
    const taskId = first.task!.taskId as string;
    const seen = await pollUntil(() => agent.get(taskId), terminal);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ taskId, status: 'completed' });
    expect(textOf(last.result)).toBe('Deployed billing to production.');
    // The question went to the human, tagged as the server's task.
    expect(fx.app.shown.at(-1)!.message).toBe('Deploy billing to production?');
    // The status the agent saw is the gateway's own words only.
    for (const t of seen.slice(0, -1)) expect(t.status).toBe('working');
    for (const t of seen) expect(GATEWAY_SENTENCES).toContain(t.statusMessage);
    expect(seen.map((t) => t.statusMessage)).toContain('waiting for the user to answer in Countersign');
  });

  it('a tasks/update from the agent answers nothing: the server never hears of it', async () => {
    const shown = fx.app.nextQuestion();
    const first = await agent.call('tm__wait_for_approval');
    const taskId = first.task!.taskId as string;
    await shown;
    await agent.update(taskId, { approve: { action: 'accept', content: { note: 'from the agent' } } });
    await new Promise((r) => setTimeout(r, 300));
    const updates = readWireLog(fx.wireLogs.tm!).filter((e) => e.dir === 'in' && e.msg?.method === 'tasks/update');
    expect(JSON.stringify(updates)).not.toContain('from the agent');
    expect((await agent.get(taskId)).status).toBe('working');
    // Cancelling from the agent withdraws the dialog and cancels the server's task.
    const removal = fx.app.nextRemoval();
    await agent.cancel(taskId);
    expect(await removal).toMatchObject({ reason: 'call-cancelled' });
    const ended = await pollUntil(() => agent.get(taskId), terminal);
    expect(ended.at(-1)!.status).toBe('cancelled');
    expect(readWireLog(fx.wireLogs.tm!).some((e) => e.dir === 'in' && e.msg?.method === 'tasks/cancel')).toBe(true);
  });

  it('a failing server task ends as a plain call would: an isError result naming the error', async () => {
    const first = await agent.call('tm__explode');
    const taskId = first.task!.taskId as string;
    const last = (await pollUntil(() => agent.get(taskId), terminal)).at(-1)!;
    expect(last.status).toBe('completed');
    expect(last.result).toMatchObject({ isError: true });
    expect(textOf(last.result)).toContain('database unreachable');
  });

  it('another agent cannot see its tasks', async () => {
    const first = await agent.call('tm__chatty');
    const other = await modernTaskAgent();
    await expect(other.get(first.task!.taskId as string)).rejects.toThrow(/Task not found/);
    await pollUntil(() => agent.get(first.task!.taskId as string), terminal);
  });

  it('nothing of any question reached the agent', () => {
    expect(askedTexts().length).toBeGreaterThan(0);
    expect(leaks(agent.received, [...FORBIDDEN, ...askedTexts()], new Set())).toEqual([]);
  });
});

describe('a 2026-07-28 agent without task support', () => {
  it('gets a call that waits, with progress that says where the task stands', async () => {
    const agent = await startAgent(fx.dataDir, { name: 'plain-agent' });
    fx.closers.push(() => agent.close());
    fx.app.reply({ action: 'accept', content: {} });
    const progress: Array<{ message?: string }> = [];
    const result = await agent.client.callTool({ name: 'tm__deploy', arguments: { service: 'api' } }, {
      onprogress: (p: { message?: string }) => void progress.push(p),
      timeout: 30_000,
    } as never);
    expect(textOf(result)).toBe('Deployed api to production.');
    const messages = new Set(progress.map((p) => p.message));
    expect(messages).toContain('the server is running it as a task (working)');
    expect(messages).toContain('waiting for the user to answer in Countersign');
    expect(leaks(agent.received, [...FORBIDDEN, ...askedTexts()], new Set())).toEqual([]);
  });
});

describe('a 2025-11-25 agent that declares tasks (SDK 1.x)', () => {
  let agent: Awaited<ReturnType<typeof legacyTaskAgent>>;
  beforeAll(async () => {
    agent = await legacyTaskAgent();
  });

  it("sees each tool's taskSupport as the server gives it", async () => {
    const { tools } = await agent.client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ tl__deploy: 'required', tl__migrate: 'optional' });
    expect(agent.client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
  });

  it('calls a task-required tool as a task: handle, status, result; the human answers in the app', async () => {
    fx.app.reply({ action: 'accept', content: {} });
    const events: Array<{ type: string; [k: string]: any }> = [];
    const stream = agent.client.experimental.tasks.callToolStream(
      { name: 'tl__deploy', arguments: { service: 'billing' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    for await (const e of stream) events.push(e as never);
    expect(events[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    const last = events.at(-1)!;
    expect(last.type).toBe('result');
    expect(textOf(last.result)).toBe('Deployed billing to production.');
    const taskId = events[0]!.task.taskId as string;
    const listed = await agent.client.experimental.tasks.listTasks();
    expect(listed.tasks.find((t) => t.taskId === taskId)).toMatchObject({ status: 'completed' });
    expect(fx.app.shown.at(-1)!.message).toBe('Deploy billing to production?');
  });

  it('cancels a task with tasks/cancel: the dialog is withdrawn', async () => {
    const shown = fx.app.nextQuestion();
    const created = (await agent.client.request(
      { method: 'tools/call', params: { name: 'tl__wait_for_approval', arguments: {}, task: { ttl: 60_000 } } },
      z.looseObject({ task: z.looseObject({ taskId: z.string(), status: z.string() }) }) as never,
    )) as { task: { taskId: string } };
    await shown;
    const removal = fx.app.nextRemoval();
    const cancelled = await agent.client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled.status).toBe('cancelled');
    expect(await removal).toMatchObject({ reason: 'call-cancelled' });
  });

  it('nothing of any question reached the agent', () => {
    expect(leaks(agent.received, [...FORBIDDEN, ...askedTexts()], new Set())).toEqual([]);
  });
});

describe('a 2025-11-25 agent without task support', () => {
  it('sees task-required tools as optional and gets a call that waits', async () => {
    const agent = await startAgent(fx.dataDir, { era: 'legacy', name: 'plain-old-agent' });
    fx.closers.push(() => agent.close());
    const { tools } = await agent.client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ tl__deploy: 'optional', tl__migrate: 'optional' });
    fx.app.reply({ action: 'accept', content: {} });
    const progress: Array<{ message?: string }> = [];
    const result = await agent.client.callTool({ name: 'tl__deploy', arguments: { service: 'api' } }, {
      onprogress: (p: { message?: string }) => void progress.push(p),
      timeout: 30_000,
    } as never);
    expect(textOf(result)).toBe('Deployed api to production.');
    expect(new Set(progress.map((p) => p.message))).toContain('waiting for the user to answer in Countersign');
    expect(leaks(agent.received, [...FORBIDDEN, ...askedTexts()], new Set())).toEqual([]);
  });
});
