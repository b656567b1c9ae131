// Task status pushes over Streamable HTTP (issue 12 gap), against the real
// 2026-07-28 fixture on 127.0.0.1. What really happens with the SDK as it is:
// createMcpHandler answers `subscriptions/listen` with its own router, which
// knows no task ids, acknowledges none and ends the stream at once, so a
// server built on it cannot push task status over HTTP; the host must notice
// and poll as if no listen had been made. A server that serves the listen
// itself (the fixture's FIXTURE_TASK_PUSH=1 front, in front of the SDK) does
// push over SSE, and the host lives on those pushes as over stdio. Side by
// side, read on the server's wire log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../electron/core/host';
import { ScriptedPrompter } from '../../electron/cli/elicit-spec';
import { readWireLog, startHttpFixture, type HttpFixture } from '../fixtures/spawn-fixture';
import { isReceivedRequest, recorder, receivedRequests } from '../integration/host-harness';

const fixtures: Record<'plain' | 'push', HttpFixture | undefined> = { plain: undefined, push: undefined };
const hosts: Host[] = [];

beforeAll(async () => {
  const env = { FIXTURE_TASK_STEP_MS: '150' };
  [fixtures.plain, fixtures.push] = await Promise.all([
    startHttpFixture('tasks-modern', { env }),
    startHttpFixture('tasks-modern', { env: { ...env, FIXTURE_TASK_PUSH: '1' } }),
  ]);
});
afterAll(async () => {
  for (const h of hosts) await h.close();
  await Promise.all(Object.values(fixtures).map((f) => f?.close()));
});

async function deploy(kind: 'plain' | 'push') {
  const fx = fixtures[kind]!;
  const { observer, events } = recorder();
  const host = new Host({
    servers: { fx: { url: fx.url } },
    prompter: new ScriptedPrompter([{ kind: 'accept' }]),
    observer,
  });
  hosts.push(host);
  const { result, task } = await host.call({
    server: 'fx',
    method: 'tools/call',
    name: 'deploy',
    arguments: { service: 'api' },
  });
  // The listen is closed when the task ends; give the teardown a moment to reach the server.
  await new Promise((r) => setTimeout(r, 300));
  return { result, taskId: task!.taskId, wire: fx.wireLog, events };
}

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;
const gets = (wire: string, taskId: string) =>
  receivedRequests(wire, 'tasks/get').filter((g) => g.msg.params.taskId === taskId).length;

describe('task status pushes over Streamable HTTP', () => {
  it('the SDK answers the listen itself with no task ids: the host sees that and polls as without a listen', async () => {
    const run = await deploy('plain');
    expect(text(run.result)).toBe('Deployed api to production.');
    const listens = receivedRequests(run.wire, 'subscriptions/listen').filter((l) =>
      l.msg.params.notifications?.taskIds?.includes(run.taskId),
    );
    expect(listens).toHaveLength(1);
    expect(listens[0]!.msg.params.notifications).toEqual({ taskIds: [run.taskId] });
    // What came back on that stream: an acknowledgement honouring nothing, then the end of the stream.
    const answer = readWireLog(run.wire).filter(
      (e) =>
        e.dir === 'out' &&
        (e.msg?.params?._meta?.['io.modelcontextprotocol/subscriptionId'] === listens[0]!.msg.id ||
          e.msg?.id === listens[0]!.msg.id),
    );
    expect(answer.map((e) => e.msg.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'result']);
    expect(answer[0]!.msg.params.notifications).toEqual({});
    expect(readWireLog(run.wire).some((e) => e.dir === 'out' && e.msg?.method === 'notifications/tasks')).toBe(false);
    // So the host polls at the server's interval, as it would without any listen.
    expect(gets(run.wire, run.taskId)).toBeGreaterThanOrEqual(5);
    expect(run.events.asked).toHaveLength(1);
  });

  it('a server that serves task-id listens itself pushes over SSE, and the host lives on the pushes', async () => {
    const [pushed, polled] = await Promise.all([deploy('push'), deploy('plain')]);
    expect(text(pushed.result)).toBe('Deployed api to production.');
    const listens = receivedRequests(pushed.wire, 'subscriptions/listen').filter((l) =>
      l.msg.params.notifications?.taskIds?.includes(pushed.taskId),
    );
    expect(listens).toHaveLength(1);
    expect(listens[0]!.msg.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
    });
    const log = readWireLog(pushed.wire);
    const ack = log.find(
      (e) =>
        e.dir === 'out' &&
        e.msg?.method === 'notifications/subscriptions/acknowledged' &&
        e.msg.params._meta['io.modelcontextprotocol/subscriptionId'] === listens[0]!.msg.id,
    );
    expect(ack!.msg.params.notifications).toEqual({ taskIds: [pushed.taskId] });
    const pushes = log.filter(
      (e) => e.dir === 'out' && e.msg?.method === 'notifications/tasks' && e.msg.params.taskId === pushed.taskId,
    );
    expect(pushes.length).toBeGreaterThan(3);
    expect(pushes.some((p) => p.msg.params.status === 'input_required')).toBe(true);
    // The question came by push, asked once; the answer still went by tasks/update.
    expect(pushed.events.asked).toHaveLength(1);
    expect(pushed.events.asked[0]!.question.origin.task?.taskId).toBe(pushed.taskId);
    expect(
      receivedRequests(pushed.wire, 'tasks/update').filter((u) => u.msg.params.taskId === pushed.taskId),
    ).toHaveLength(1);
    // Polling only as a backstop once the listen is acknowledged (until then the host polls as usual, which on a
    // loaded machine can be one more poll), against one poll per ~150 ms without pushes.
    const getsOnPushes = log
      .slice(log.indexOf(ack!))
      .filter((e) => isReceivedRequest(e, 'tasks/get') && e.msg.params.taskId === pushed.taskId).length;
    expect(getsOnPushes).toBeLessThanOrEqual(2);
    expect(gets(polled.wire, polled.taskId)).toBeGreaterThanOrEqual(5);
    // The task over, the host ended its listen: the SSE request aborted and notifications/cancelled sent.
    expect(
      log.some(
        (e) =>
          e.dir === 'in' &&
          e.msg?.note === 'listen stream closed by the client' &&
          e.msg.requestId === listens[0]!.msg.id,
      ),
    ).toBe(true);
    expect(
      log.some(
        (e) =>
          e.dir === 'in' &&
          e.msg?.method === 'notifications/cancelled' &&
          e.msg.params.requestId === listens[0]!.msg.id,
      ),
    ).toBe(true);
  });
});
