// Tasks in both eras, against the real task fixtures (the 2026-07-28 Tasks
// extension on the SDK 2.x server, task-augmented tools on the SDK 1.x
// server), over stdio: what the host sends is checked on the server's wire log.
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/core/host';
import { isHostError } from '../../electron/core/host-error';
import type { TaskChangedEvent } from '../../electron/core/events';
import { hostFor, receivedRequests, stdioFixture } from '../integration/host-harness';
import type { ElicitSpec } from '../../electron/cli/elicit-spec';
import type { HostExtras } from '../integration/host-harness';

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function setup(kind: 'tasks-modern' | 'tasks-legacy', specs: ElicitSpec[], extra: HostExtras = {}) {
  const fx = stdioFixture(kind);
  const changes: TaskChangedEvent[] = [];
  const h = hostFor(fx.entry, specs, extra);
  const observer = (h.host as unknown as { observer: { taskChanged?: unknown } }).observer;
  observer.taskChanged = (e: TaskChangedEvent) => void changes.push(e);
  open = h.host;
  return { ...h, wireLog: fx.wireLog, changes };
}

/** Calls `explode`: the task fails, and the call ends with the server's reason. */
async function expectFailedTask(kind: 'tasks-modern' | 'tasks-legacy'): Promise<void> {
  const { host } = setup(kind, []);
  const error = await host.call({ server: 'fx', method: 'tools/call', name: 'explode' }).catch((e) => e);
  expect(isHostError(error, 'task-failed')).toBe(true);
  expect(error.message).toContain('database unreachable');
}

/**
 * Starts `stubborn` (it ignores cancels); resolves, with the call under way, once the host lists the task and it ran
 * a moment.
 */
async function startStubborn(host: Host, signal: AbortSignal) {
  const running = host.call({ server: 'fx', method: 'tools/call', name: 'stubborn', signal });
  while ((await host.tasks.list()).length === 0) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 150));
  // Wrapped: an async function would otherwise wait for the call itself.
  return { running };
}

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;
const statuses = (changes: TaskChangedEvent[]) =>
  changes.filter((c) => c.previous !== undefined).map((c) => `${c.previous}->${c.task.status}`);

describe('2026-07-28 Tasks extension', () => {
  it('declares the extension per request, follows the task, answers its question with tasks/update', async () => {
    const { host, wireLog, events, changes } = setup('tasks-modern', [{ kind: 'accept' }]);
    const { result, task } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'deploy',
      arguments: { service: 'api' },
    });
    expect(text(result)).toBe('Deployed api to production.');
    expect(task).toMatchObject({ status: 'completed', detached: false });
    const calls = receivedRequests(wireLog, 'tools/call');
    expect(calls[0]!.msg.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      elicitation: { form: {}, url: {} },
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const updates = receivedRequests(wireLog, 'tasks/update');
    expect(updates.map((u) => Object.keys(u.msg.params.inputResponses))).toEqual([['confirm']]);
    expect(updates[0]!.msg.params.taskId).toBe(task!.taskId);
    expect(updates[0]!.msg.params.inputResponses.confirm).toEqual({ action: 'accept', content: {} });
    // The question went through the gate, tagged with its task.
    expect(events.asked).toHaveLength(1);
    expect(events.asked[0]!.question.origin.task?.taskId).toBe(task!.taskId);
    expect(statuses(changes)).toEqual(expect.arrayContaining(['working->input_required', 'input_required->working']));
    expect(changes.at(-1)!.task).toMatchObject({ status: 'completed', endedAt: expect.any(String) });
  });

  it('respects the poll interval: tasks/get never comes faster than pollIntervalMs', async () => {
    const { host, wireLog } = setup('tasks-modern', [{ kind: 'accept' }]);
    await host.call({ server: 'fx', method: 'tools/call', name: 'stubborn' });
    const gets = receivedRequests(wireLog, 'tasks/get').map((g) => g.t);
    expect(gets.length).toBeGreaterThan(2);
    for (let i = 1; i < gets.length; i++) expect(gets[i]! - gets[i - 1]!).toBeGreaterThanOrEqual(95);
  });

  it('asks twice, one tasks/update per key, answers carry the form content', async () => {
    const { host, wireLog, events } = setup('tasks-modern', [{ kind: 'accept-defaults' }, { kind: 'accept' }]);
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'migrate' });
    expect(text(result)).toBe('Migrated with strategy online in batches of 100.');
    const keys = receivedRequests(wireLog, 'tasks/update').map((u) => Object.keys(u.msg.params.inputResponses));
    expect(keys).toEqual([['plan'], ['confirm']]);
    expect(events.answers.map((a) => a.question.origin.key)).toEqual(['plan', 'confirm']);
  });

  it('a failed task ends the call with its JSON-RPC error', () => expectFailedTask('tasks-modern'));

  it('cancel sends tasks/cancel and reports what the server says; a task that ignores it is reported as such', async () => {
    const { host, wireLog } = setup('tasks-modern', []);
    const controller = new AbortController();
    const { running } = await startStubborn(host, controller.signal);
    controller.abort(new Error('user'));
    const error = await running.catch((e) => e);
    // Abort from the caller: the host cancels the task on the server.
    expect(receivedRequests(wireLog, 'tasks/cancel')).toHaveLength(1);
    expect(isHostError(error, 'cancelled')).toBe(true);
    expect(error.message).toMatch(/still reports it (working|completed)|cooperative/);
  });

  it('a task that outlives its ttl is given up with a clear error', async () => {
    const { host } = setup('tasks-modern', []);
    const error = await host.call({ server: 'fx', method: 'tools/call', name: 'outlive_ttl' }).catch((e) => e);
    expect(isHostError(error, 'task-expired')).toBe(true);
    expect(error.message).toMatch(/outlived its ttl of 800 ms/);
  });
});

describe('2025-11-25 task-augmented requests (SDK 1.x server)', () => {
  it('declares tasks at initialize and calls a taskSupport "required" tool as a task', async () => {
    const { host, wireLog, events } = setup('tasks-legacy', [{ kind: 'accept' }]);
    const { result, task } = await host.call({
      server: 'fx',
      method: 'tools/call',
      name: 'deploy',
      arguments: { service: 'api' },
    });
    expect(text(result)).toBe('Deployed api to production.');
    expect(task?.status).toBe('completed');
    const [init] = receivedRequests(wireLog, 'initialize');
    expect(init!.msg.params.capabilities).toMatchObject({ tasks: {} });
    const [call] = receivedRequests(wireLog, 'tools/call');
    expect(call!.msg.params.task).toEqual({ ttl: 3_600_000 });
    expect(receivedRequests(wireLog, 'tasks/result')).toHaveLength(1);
    expect(events.asked).toHaveLength(1);
    expect(events.asked[0]!.question.origin.task?.taskId).toBe(task!.taskId);
  });

  it('an optional tool runs as a task only when the call is known to be long', async () => {
    const { host, wireLog } = setup('tasks-legacy', [{ kind: 'accept-defaults' }, { kind: 'accept' }]);
    const { result, task } = await host.call({ server: 'fx', method: 'tools/call', name: 'migrate', preferTask: true });
    expect(text(result)).toBe('Migrated with strategy online in batches of 100.');
    expect(task).toBeDefined();
    expect(receivedRequests(wireLog, 'tools/call')[0]!.msg.params.task).toBeDefined();
  });

  it('a failed task ends the call with the server’s reason', () => expectFailedTask('tasks-legacy'));

  it('cancel: tasks/cancel, and the cancelled state the server reports', async () => {
    const { host, wireLog } = setup('tasks-legacy', []);
    const { running } = await startStubborn(host, new AbortController().signal);
    const taskId = (await host.tasks.list())[0]!.taskId;
    await host.tasks.cancel(taskId);
    const error = await running.catch((e) => e);
    expect(receivedRequests(wireLog, 'tasks/cancel')).toHaveLength(1);
    expect(isHostError(error, 'cancelled')).toBe(true);
    expect(error.message).toContain('the server reports it cancelled');
  });
});
