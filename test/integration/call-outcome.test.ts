// How a call or task ended, in the person's terms (issue 23 item 5): the real
// HostService against the real fixtures in both eras. A server that hears
// "decline" still completes the call with a text saying so; the call's and the
// task's views carry what the last round was answered with and who decided, so
// the views never show that as a green success.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import type { Answer } from '../../shared/elicitation/types';
import type { CallView, TaskView } from '../../shared/host-api/contract';
import { HostService } from '../../electron/core/service/host-service';
import type { FixtureKind } from '../fixtures/spawn-fixture';
import { stdioFixture } from './host-harness';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function open(kind: FixtureKind) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-outcome-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const service = await HostService.create({
    dataDir,
    openExternal: async () => undefined,
    firstStartServers: { fx: stdioFixture(kind).entry },
    watchConfig: false,
  });
  service.log = () => undefined;
  cleanup.push(() => service.close());
  const ended = new Map<string, CallView>();
  service.events.on('callUpdated', (v) => v.state !== 'running' && ended.set(v.callId, v));
  const tasks: TaskView[] = [];
  service.events.on('taskUpdated', (v) => tasks.push(v));
  return { service, ended, tasks };
}

type Service = Awaited<ReturnType<typeof open>>;

/** Calls `tool` and answers its questions, round by round, with `answers` (one per question, in order). */
async function callAnswering(
  { service, ended }: Service,
  tool: string,
  answers: Answer[],
  args: Record<string, unknown> = {},
): Promise<CallView> {
  const { callId } = await service.invoke('callTool', { server: 'fx', tool, args });
  for (const answer of answers) {
    const q = await waitFor(async () => (await service.invoke('listQuestions', {}))[0], `a question of ${tool}`);
    await service.invoke('answerQuestion', { questionId: q.id, answer });
    await waitFor(
      async () => ((await service.invoke('listQuestions', {})).some((x) => x.id === q.id) ? undefined : true),
      `question ${q.id} to go`,
    );
  }
  return waitFor(() => ended.get(callId), `${tool} to end`);
}

describe('the last answer a call and a task were given', () => {
  it('modern: a declined confirm completes the call, and its view says it was the person who declined', async () => {
    const fx = await open('modern');
    const view = await callAnswering(fx, 'confirm_delete', [{ action: 'decline' }], { entryId: 42 });
    expect(view).toMatchObject({ state: 'complete', lastAnswer: { action: 'decline', decidedBy: 'human' } });
    expect(JSON.stringify(view.result)).toContain('declined by the user, nothing was deleted');
  });

  it('modern: a round is what its worst answer was; the last round decides, a call that asked nothing has none', async () => {
    const fx = await open('modern');
    const mixed = await callAnswering(fx, 'two_questions', [
      { action: 'accept', content: { project: 'cs' } },
      { action: 'decline' },
    ]);
    expect(mixed.lastAnswer).toEqual({ action: 'decline', decidedBy: 'human' });
    const twoRounds = await callAnswering(fx, 'two_rounds', [
      { action: 'accept', content: { name: 'Ada' } },
      { action: 'cancel' },
    ]);
    expect(JSON.stringify(twoRounds.result)).toContain('cancelled at round 2');
    expect(twoRounds.lastAnswer).toEqual({ action: 'cancel', decidedBy: 'human' });
    const accepted = await callAnswering(fx, 'confirm_delete', [{ action: 'accept', content: {} }], { entryId: 7 });
    expect(accepted.lastAnswer).toEqual({ action: 'accept', decidedBy: 'human' });
    const silent = await callAnswering(fx, 'echo', [], { text: 'hi' });
    expect(silent).toMatchObject({ state: 'complete' });
    expect(silent.lastAnswer).toBeUndefined();
  });

  it('legacy: elicitation/create answered with cancel; the call completes and says so', async () => {
    const fx = await open('legacy');
    const view = await callAnswering(fx, 'confirm_delete', [{ action: 'cancel' }], { entryId: 42 });
    expect(view).toMatchObject({ state: 'complete', lastAnswer: { action: 'cancel', decidedBy: 'human' } });
  });

  it('legacy: a question the server withdraws before anyone answers leaves the completed call "unanswered"', async () => {
    const fx = await open('legacy');
    const view = await callAnswering(fx, 'ask_and_leave', []);
    expect(JSON.stringify(view.result)).toContain('moved on without an answer');
    expect(view.lastAnswer).toEqual({ action: 'cancel', decidedBy: 'call-cancelled' });
  });

  it.each(['tasks-modern', 'tasks-legacy'] as const)(
    '%s: a task whose question was declined completes, and its task view names the decline',
    async (kind) => {
      const fx = await open(kind);
      const call = await callAnswering(fx, 'deploy', [{ action: 'decline' }]);
      expect(JSON.stringify(call.result)).toContain('Deploy of billing stopped: the user chose decline.');
      const [task] = await fx.service.invoke('listTasks', {});
      expect(task).toMatchObject({ status: 'completed', lastAnswer: { action: 'decline', decidedBy: 'human' } });
      // The event that told the view the task completed carried it too.
      expect(fx.tasks.filter((t) => t.status === 'completed').at(-1)?.lastAnswer).toEqual({
        action: 'decline',
        decidedBy: 'human',
      });
    },
  );
});
