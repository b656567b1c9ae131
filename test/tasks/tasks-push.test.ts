// Modern status notifications (Tasks extension: subscriptions/listen with
// notifications.taskIds, then notifications/tasks). The same task runs side by
// side against the real 2026-07-28 fixture with pushes offered and without:
// the wire log shows the host listens for exactly its task, lives on the
// pushes (its question included), polls far less, and closes the listen when
// the task ends. Without pushes it polls as before.
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/core/host';
import { readWireLog } from '../fixtures/spawn-fixture';
import { hostFor, isReceivedRequest, receivedRequests, stdioFixture } from '../integration/host-harness';

const open: Host[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function deploy(push: boolean) {
  const fx = stdioFixture('tasks-modern');
  const env: Record<string, string> = {
    ...(fx.entry as { env: Record<string, string> }).env,
    FIXTURE_TASK_STEP_MS: '150',
  };
  if (push) env.FIXTURE_TASK_PUSH = '1';
  const { host, events } = hostFor({ ...fx.entry, env }, [{ kind: 'accept' }]);
  open.push(host);
  const { result, task } = await host.call({
    server: 'fx',
    method: 'tools/call',
    name: 'deploy',
    arguments: { service: 'api' },
  });
  // The listen is closed when the task ends; give the teardown a moment to reach the server.
  await new Promise((r) => setTimeout(r, 200));
  return { result, taskId: task!.taskId, wire: fx.wireLog, events };
}

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;

describe('task status notifications (2026-07-28 Tasks extension)', () => {
  it('listens for its task, lives on the pushes and polls less than without them', async () => {
    const [pushed, polled] = await Promise.all([deploy(true), deploy(false)]);
    for (const run of [pushed, polled]) {
      expect(text(run.result)).toBe('Deployed api to production.');
      expect(receivedRequests(run.wire, 'tasks/update').map((u) => Object.keys(u.msg.params.inputResponses))).toEqual([
        ['confirm'],
      ]);
    }

    // The host asked to be told about exactly its task, declaring the extension on the listen.
    const listens = receivedRequests(pushed.wire, 'subscriptions/listen');
    expect(listens).toHaveLength(1);
    expect(listens[0]!.msg.params.notifications).toEqual({ taskIds: [pushed.taskId] });
    expect(listens[0]!.msg.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
    });
    const log = readWireLog(pushed.wire);
    const pushes = log.filter((e) => e.dir === 'out' && e.msg?.method === 'notifications/tasks');
    expect(pushes.length).toBeGreaterThan(3);
    expect(pushes.some((p) => p.msg.params.status === 'input_required')).toBe(true);
    // The question came by push and was asked once, tagged with its task.
    expect(pushed.events.asked).toHaveLength(1);
    expect(pushed.events.asked[0]!.question.origin.task?.taskId).toBe(pushed.taskId);

    // Far fewer polls: once the server has acknowledged the listen, only the look right after the answer, against
    // one every ~150 ms. (Until the acknowledgement the host polls as usual; on a loaded machine that took one
    // more poll, so the count starts there.)
    const gets = (wire: string) => receivedRequests(wire, 'tasks/get').length;
    const ackAt = log.findIndex((e) => e.dir === 'out' && e.msg?.method === 'notifications/subscriptions/acknowledged');
    expect(ackAt).toBeGreaterThan(-1);
    const getsOnPushes = log.slice(ackAt).filter((e) => isReceivedRequest(e, 'tasks/get')).length;
    expect(getsOnPushes).toBeLessThanOrEqual(2);
    expect(gets(polled.wire)).toBeGreaterThanOrEqual(5);
    expect(gets(polled.wire)).toBeGreaterThanOrEqual(3 * Math.max(1, getsOnPushes));

    // The task over, the host ended its listen.
    const cancelled = log.filter(
      (e) =>
        e.dir === 'in' && e.msg?.method === 'notifications/cancelled' && e.msg.params.requestId === listens[0]!.msg.id,
    );
    expect(cancelled).toHaveLength(1);
  });

  it('a server that acknowledges no task ids leaves the host polling, and the listen is closed at once', async () => {
    const run = await deploy(false);
    const listens = receivedRequests(run.wire, 'subscriptions/listen');
    expect(listens).toHaveLength(1);
    const log = readWireLog(run.wire);
    const ack = log.find((e) => e.dir === 'out' && e.msg?.method === 'notifications/subscriptions/acknowledged');
    expect(ack?.msg.params.notifications.taskIds).toBeUndefined();
    const cancel = log.find(
      (e) =>
        e.dir === 'in' && e.msg?.method === 'notifications/cancelled' && e.msg.params.requestId === listens[0]!.msg.id,
    )!;
    // Closed right after the acknowledgement, long before the task's first answer.
    const update = receivedRequests(run.wire, 'tasks/update')[0]!;
    expect(cancel.t).toBeLessThan(update.t);
  });
});
