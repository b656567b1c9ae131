import { describe, expect, it, vi } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import { createInMemoryHost } from '../api/in-memory-host';
import { confirmQuestion, formQuestion, origin, urlQuestion } from '../testing/questions';
import { QuestionQueue, questionsWaiting } from './question-queue';

const schema = { type: 'object' as const, properties: { a: { type: 'string' as const } } };

async function started(questions: Question[] = []) {
  const host = createInMemoryHost({ questions });
  const queue = new QuestionQueue(host.api);
  await queue.start();
  return { host, queue };
}

describe('QuestionQueue', () => {
  it('loads waiting questions, then queues new ones in arrival order', async () => {
    const first = confirmQuestion();
    const { host, queue } = await started([first]);
    const second = formQuestion(schema, { origin: origin({ server: 'files' }) });
    const third = urlQuestion();
    host.push(second);
    host.push(third);
    expect(queue.getState().questions.map((q) => q.id)).toEqual([first.id, second.id, third.id]);
    expect(queue.front()?.id).toBe(first.id);
    expect(queue.getState().loaded).toBe(true);
  });

  it('ignores a repeated questionAdded and a list that repeats an event', async () => {
    const host = createInMemoryHost();
    const q = confirmQuestion();
    const queue = new QuestionQueue(host.api);
    const starting = queue.start();
    host.push(q); // arrives while listQuestions is on its way; the list holds it too
    await starting;
    host.emit('questionAdded', q);
    expect(queue.getState().questions).toHaveLength(1);
  });

  it('does not resurrect a question withdrawn before the list arrived', async () => {
    const q = confirmQuestion();
    const host = createInMemoryHost();
    const api = { ...host.api, listQuestions: async () => [q] };
    const queue = new QuestionQueue(api);
    const starting = queue.start();
    host.emit('questionRemoved', { questionId: q.id, reason: 'call-cancelled' });
    await starting;
    expect(queue.getState().questions).toHaveLength(0);
  });

  it('answers a question once: a second answer for the same id sends nothing', async () => {
    const q = confirmQuestion();
    const { host, queue } = await started([q]);
    const [a, b] = await Promise.all([
      queue.answer(q.id, { action: 'accept', content: {} }),
      queue.answer(q.id, { action: 'decline' }),
    ]);
    expect([a, b]).toEqual([true, false]);
    expect(await queue.answer(q.id, { action: 'cancel' })).toBe(false);
    const sent = host.calls.filter((c) => c.method === 'answerQuestion');
    expect(sent).toEqual([
      expect.objectContaining({ params: { questionId: q.id, answer: { action: 'accept', content: {} } } }),
    ]);
    expect(queue.getState().questions).toHaveLength(0);
    expect(queue.getState().notes).toHaveLength(0); // our own answer echoing back is no news
  });

  it('moves the next question to the front after an answer', async () => {
    const q1 = confirmQuestion();
    const q2 = confirmQuestion({ origin: origin({ server: 'files' }) });
    const { queue } = await started([q1, q2]);
    await queue.answer(q1.id, { action: 'decline' });
    expect(queue.front()?.id).toBe(q2.id);
  });

  it('keeps a question whose answer failed to send, with the error, so it can be retried', async () => {
    const q = confirmQuestion();
    const { host, queue } = await started([q]);
    host.failNextAnswer('pipe broken');
    expect(await queue.answer(q.id, { action: 'accept', content: {} })).toBe(false);
    expect(queue.getState().sendError).toEqual({ questionId: q.id, message: 'pipe broken' });
    expect(queue.front()?.id).toBe(q.id);
    expect(await queue.answer(q.id, { action: 'accept', content: {} })).toBe(true);
    expect(queue.getState().sendError).toBeNull();
  });

  it('removes a withdrawn question with a note naming server and reason', async () => {
    const q1 = confirmQuestion({ origin: origin({ server: 'files' }) });
    const q2 = confirmQuestion();
    const { host, queue } = await started([q1, q2]);
    host.withdraw(q2.id, 'server-gone');
    host.withdraw(q1.id, 'call-cancelled', 'The tool call was stopped.');
    expect(queue.getState().questions).toHaveLength(0);
    expect(queue.getState().notes).toEqual([
      expect.objectContaining({ questionId: q2.id, server: 'github', reason: 'server-gone' }),
      expect.objectContaining({
        questionId: q1.id,
        server: 'files',
        reason: 'call-cancelled',
        detail: 'The tool call was stopped.',
      }),
    ]);
    const [note] = queue.getState().notes;
    queue.dismissNote(note!.id);
    expect(queue.getState().notes).toHaveLength(1);
  });

  it('notes a question answered elsewhere (another window)', async () => {
    const q = confirmQuestion();
    const { host, queue } = await started([q]);
    host.emit('questionRemoved', { questionId: q.id, reason: 'answered' });
    expect(queue.getState().notes[0]?.reason).toBe('answered');
  });

  it('an answer racing a withdrawal is not sent twice and nothing is lost', async () => {
    const q = confirmQuestion();
    const { host, queue } = await started([q]);
    const pending = queue.answer(q.id, { action: 'decline' });
    host.withdraw(q.id, 'timeout');
    await pending;
    expect(queue.getState().questions).toHaveLength(0);
    expect(host.calls.filter((c) => c.method === 'answerQuestion')).toHaveLength(1);
  });

  it('reports a host that cannot be reached', async () => {
    const host = createInMemoryHost();
    const queue = new QuestionQueue({ ...host.api, listQuestions: () => Promise.reject(new Error('no host')) });
    await queue.start();
    expect(queue.getState()).toMatchObject({ loaded: true, loadError: 'no host' });
  });

  it('opens URLs only for waiting questions, and reports host refusals', async () => {
    const q = urlQuestion();
    const { host, queue } = await started([q]);
    expect(await queue.openUrl(q.id)).toEqual({ opened: true });
    expect(await queue.openUrl('nope')).toEqual({ opened: false, reason: 'not waiting' });
    host.setOpenResult({ opened: false, reason: 'no browser' });
    expect(await queue.openUrl(q.id)).toEqual({ opened: false, reason: 'no browser' });
  });

  it("opens a link the host hands back (the web shell) with the tab opener: the host's link, not the page's", async () => {
    const q = urlQuestion({ href: 'https://EXAMPLE.com/shown' });
    const host = createInMemoryHost({ questions: [q] });
    const opened: string[] = [];
    const queue = new QuestionQueue(host.api, (href) => opened.push(href));
    await queue.start();
    host.setOpenResult({ opened: true, openHere: 'https://example.com/checked' });
    expect(await queue.openUrl(q.id)).toEqual({ opened: true });
    expect(opened).toEqual(['https://example.com/checked']);
    expect(queue.getState().opened[q.id]).toBe(true);
    // A refusal opens nothing.
    host.setOpenResult({ opened: false, reason: 'the link is blocked' });
    expect(await queue.openUrl(q.id)).toEqual({ opened: false, reason: 'the link is blocked' });
    expect(opened).toHaveLength(1);
  });

  it('a window without a tab opener says the link was not opened, so the dialog offers Copy link', async () => {
    const q = urlQuestion();
    const { host, queue } = await started([q]);
    host.setOpenResult({ opened: true, openHere: 'https://example.com/x' });
    expect(await queue.openUrl(q.id)).toEqual({ opened: false, reason: 'this window cannot open links' });
    expect(queue.getState().opened[q.id]).toBeUndefined();
  });

  it('notifies subscribers and stops listening on stop()', async () => {
    const { host, queue } = await started();
    const listener = vi.fn();
    const off = queue.subscribe(listener);
    host.push(confirmQuestion());
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    queue.stop();
    host.push(confirmQuestion());
    expect(listener).toHaveBeenCalledTimes(1);
    expect(queue.getState().questions).toHaveLength(1);
  });

  it('a round put at once: shown one by one, Back keeps every answer, nothing is sent until the last one', async () => {
    const keys = ['project', 'confirm', 'ticket'];
    const member = (index: number) =>
      formQuestion(schema, {
        origin: origin({ key: keys[index - 1]!, roundPosition: { index, count: 3, keys, roundId: 'r1' } }),
      });
    // They may arrive out of order: the round is shown in key order all the same.
    const [q1, q2, q3] = [member(1), member(2), member(3)];
    const { host, queue } = await started([q2, q1, q3]);
    const sent = () => host.calls.filter((c) => c.method === 'answerQuestion').map((c) => c.params);
    expect(queue.shown()?.id).toBe(q1.id);
    expect(questionsWaiting(queue.getState().questions, queue.getState().drafts)).toBe(3);

    await queue.answer(q1.id, { action: 'accept', content: { a: 'ops' } });
    expect(queue.shown()?.id).toBe(q2.id);
    expect(questionsWaiting(queue.getState().questions, queue.getState().drafts)).toBe(2);
    await queue.answer(q2.id, { action: 'decline' });
    expect(queue.shown()?.id).toBe(q3.id);
    queue.back(q3.id);
    queue.back(q2.id);
    queue.back(q1.id); // the first has no way back
    expect(queue.shown()?.id).toBe(q1.id);
    expect(queue.getState().drafts[q1.id]).toEqual({ action: 'accept', content: { a: 'ops' } });
    expect(sent()).toEqual([]);

    await queue.answer(q1.id, { action: 'accept', content: { a: 'cs' } });
    expect(queue.shown()?.id).toBe(q2.id);
    expect(queue.getState().drafts[q2.id]).toEqual({ action: 'decline' });
    await queue.answer(q2.id, { action: 'decline' });
    expect(sent()).toEqual([]);
    await queue.answer(q3.id, { action: 'decline' });
    expect(sent()).toEqual([
      { questionId: q1.id, answer: { action: 'accept', content: { a: 'cs' } } },
      { questionId: q2.id, answer: { action: 'decline' } },
      { questionId: q3.id, answer: { action: 'decline' } },
    ]);
    expect(queue.getState().questions).toEqual([]);
    expect(queue.getState().drafts).toEqual({});
  });
  it('remembers which links were opened (by the host or, said the human, elsewhere) until the question leaves', async () => {
    const [a, b, c] = [urlQuestion(), urlQuestion(), urlQuestion()];
    const { host, queue } = await started([a, b, c]);
    await queue.openUrl(a.id);
    host.setOpenResult({ opened: false, reason: 'no system browser' });
    await queue.openUrl(b.id);
    expect(queue.getState().opened).toEqual({ [a.id]: true });
    queue.markOpened(b.id);
    queue.markOpened('not-waiting');
    expect(queue.getState().opened).toEqual({ [a.id]: true, [b.id]: true });
    await queue.answer(a.id, { action: 'accept' });
    host.withdraw(b.id, 'call-cancelled');
    expect(queue.getState().opened).toEqual({});
    expect(queue.getState().questions.map((q) => q.id)).toEqual([c.id]);
  });

  describe('"Cancel task"', () => {
    const taskId = '4f2a9c81-0000-4000-8000-000000000000';
    const taskQuestion = () =>
      confirmQuestion({ origin: origin({ server: 'ci', task: { taskId, startedAt: new Date().toISOString() } }) });

    it('is offered only for a question of a task, and only when the host can cancel tasks', async () => {
      const plain = confirmQuestion();
      const ofTask = taskQuestion();
      const { host, queue } = await started([plain, ofTask]);
      expect(queue.canCancelTask(plain.id)).toBe(false);
      expect(queue.canCancelTask(ofTask.id)).toBe(true);
      const { cancelTask: _omit, ...withoutCancel } = host.api;
      const older = new QuestionQueue(withoutCancel);
      await older.start();
      expect(older.canCancelTask(ofTask.id)).toBe(false);
      expect(await older.cancelTask(ofTask.id)).toBe(false);
    });

    it('leaves no note for the withdrawal it caused, and frees the queue before the host has finished', async () => {
      const q = taskQuestion();
      const next = confirmQuestion();
      const host = createInMemoryHost({ questions: [q, next] });
      let release!: () => void;
      const api = {
        ...host.api,
        // The real host withdraws the question at once, then waits to hear what the server says.
        cancelTask: async (p: { taskId: string; questionId?: string }) => {
          host.withdraw(q.id, 'call-cancelled', 'withdrawn');
          await new Promise<void>((r) => (release = r));
          return {
            taskId: p.taskId,
            server: 'ci',
            tool: 'deploy',
            status: 'cancelled' as const,
            startedAt: '',
            lastUpdatedAt: '',
            running: false,
          };
        },
      };
      const queue = new QuestionQueue(api);
      await queue.start();
      const cancelling = queue.cancelTask(q.id);
      await vi.waitFor(() => expect(queue.getState().questions.map((x) => x.id)).toEqual([next.id]));
      expect(queue.getState().notes).toEqual([]);
      // The next question can be answered while the cancel is still on its way.
      expect(queue.getState().sending).toBeNull();
      expect(await queue.answer(next.id, { action: 'decline' })).toBe(true);
      release();
      expect(await cancelling).toBe(true);
    });

    it('still tells the human when a call is cancelled while their own answer is on its way', async () => {
      const q = confirmQuestion();
      const host = createInMemoryHost({ questions: [q] });
      const api = {
        ...host.api,
        answerQuestion: async () => {
          host.withdraw(q.id, 'call-cancelled', 'The call was cancelled; the question was withdrawn.');
          return { accepted: false };
        },
      };
      const queue = new QuestionQueue(api);
      await queue.start();
      await queue.answer(q.id, { action: 'accept', content: {} });
      expect(queue.getState().notes.map((n) => n.reason)).toEqual(['call-cancelled']);
    });
  });
});
