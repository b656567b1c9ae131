import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TaskView } from '../../../shared/host-api/contract';
import { formatAge } from '../i18n/age';
import { createTranslate } from '../i18n/translate';
import { confirmQuestion, origin } from '../testing/questions';
import { renderApp } from '../testing/render-app';

describe('a question from a task', () => {
  it('says in its dialog header which task asks and how long it has been running', async () => {
    const startedAt = new Date(Date.now() - 3 * 60_000 - 5_000).toISOString();
    const q = confirmQuestion({
      origin: origin({
        server: 'ci',
        name: 'deploy',
        task: { taskId: '4f2a9c81-0000-4000-8000-000000000000', startedAt },
      }),
    });
    await renderApp({ questions: [q], servers: ['ci'] });
    const line = await screen.findByTestId('origin-task');
    expect(line.textContent).toBe('Task 4f2a9c… of deploy, running 3 min');
    // It is part of the dialog, read with the rest of its header.
    expect(screen.getByRole('dialog').contains(line)).toBe(true);
  });

  it('has no task line for an ordinary call', async () => {
    await renderApp({ questions: [confirmQuestion()] });
    await screen.findByRole('dialog');
    expect(screen.queryByTestId('origin-task')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Cancel task/ })).toBeNull();
  });

  it('offers "Cancel task", which cancels the task (not an answer) and closes the question without a note', async () => {
    const taskId = '4f2a9c81-0000-4000-8000-000000000000';
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    const running: TaskView = {
      taskId,
      server: 'ci',
      tool: 'deploy',
      status: 'input_required',
      startedAt,
      lastUpdatedAt: startedAt,
      running: true,
    };
    const q = confirmQuestion({ origin: origin({ server: 'ci', name: 'deploy', task: { taskId, startedAt } }) });
    const app = await renderApp({ questions: [q], servers: ['ci'], tasks: [running] });
    const dialog = await screen.findByRole('dialog');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel task 4f2a9c… of deploy' });
    // Set apart from the question's own answers, and says what it does.
    expect(cancel.textContent).toBe('Cancel task');
    expect(cancel.title).toContain('Decline or Close answer only this question');
    // Never first in the Tab order: the header's close button and the question come before it.
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).not.toBe(cancel);
    expect(dialog.querySelector('.dialog-header')!.contains(cancel)).toBe(false);
    expect(dialog.querySelector('.dialog-footer')!.contains(cancel)).toBe(true);
    await userEvent.setup().click(cancel);
    expect(app.host.calls.filter((c) => c.method === 'cancelTask').map((c) => c.params)).toEqual([
      { taskId, questionId: q.id },
    ]);
    expect(app.answers()).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The human did it: no "question withdrawn" note.
    expect(app.stores.queue.getState().notes).toEqual([]);
    expect(app.stores.tasks.getState().tasks[0]).toMatchObject({ taskId, status: 'cancelled' });
  });

  it('keeps the question, saying why, when the host refuses the cancel', async () => {
    const taskId = '4f2a9c81-0000-4000-8000-000000000000';
    const startedAt = new Date().toISOString();
    const q = confirmQuestion({ origin: origin({ server: 'ci', name: 'deploy', task: { taskId, startedAt } }) });
    const app = await renderApp({ questions: [q], servers: ['ci'] });
    app.host.failNext('cancelTask', `no task "${taskId}" is known to this host`);
    const dialog = await screen.findByRole('dialog');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: /^Cancel task/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('is known to this host');
    // Still there, still answerable.
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(app.answers()).toEqual([{ questionId: q.id, answer: { action: 'decline' } }]);
  });

  it('words ages from seconds to days, in both languages', () => {
    const en = createTranslate('en');
    const de = createTranslate('de');
    expect(formatAge(20_000, en)).toBe('under a minute');
    expect(formatAge(-5, en)).toBe('under a minute');
    expect(formatAge(59 * 60_000, en)).toBe('59 min');
    expect(formatAge(125 * 60_000, en)).toBe('2 h 5 min');
    expect(formatAge(26 * 3_600_000, en)).toBe('1 d 2 h');
    expect(formatAge(3 * 60_000, de)).toBe('3 Min.');
  });
});
