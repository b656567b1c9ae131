import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TaskView } from '../../../../shared/host-api/contract';
import { renderApp } from '../../testing/render-app';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function task(patch: Partial<TaskView> = {}): TaskView {
  return {
    taskId: '4f2a9c81-aaaa-4000-8000-000000000001',
    server: 'ci',
    tool: 'deploy',
    status: 'working',
    statusMessage: 'building api (1/2)',
    startedAt: ago(3 * 60_000 + 2_000),
    lastUpdatedAt: ago(1_000),
    running: true,
    ...patch,
  };
}

describe('the Tasks view', () => {
  it('lists each running task with server, tool, status, message and age, and cancels through the host', async () => {
    const app = await renderApp({ view: 'tasks', tasks: [task()] });
    expect(screen.getByRole('heading', { level: 2, name: 'Tasks' })).toBeTruthy();
    const table = within(screen.getByRole('region', { name: 'Running' })).getByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['ci', 'deploy 4f2a9c…', 'Working', 'building api (1/2)', '3 min']);

    await userEvent.setup().click(within(row).getByRole('button', { name: 'Cancel task 4f2a9c… of deploy' }));
    expect(app.host.calls.filter((c) => c.method === 'cancelTask').map((c) => c.params)).toEqual([
      { taskId: '4f2a9c81-aaaa-4000-8000-000000000001' },
    ]);
    // The task moves to Finished in the state the host reports.
    const finished = await screen.findByRole('region', { name: 'Finished' });
    expect(within(finished).getByTestId('task-status').textContent).toBe('Cancelled');
    expect(screen.queryByRole('region', { name: 'Running' })).toBeNull();
  });

  it('follows status changes pushed by the host, and shows a finished task with its result', async () => {
    const app = await renderApp({ view: 'tasks', tasks: [task()] });
    act(() => app.host.putTask(task({ status: 'input_required', statusMessage: 'Deploy api to production?' })));
    expect(screen.getByTestId('task-status').textContent).toBe('Waiting for you');
    expect(screen.getByText('Deploy api to production?')).toBeTruthy();
    act(() =>
      app.host.putTask(
        task({
          status: 'completed',
          running: false,
          endedAt: ago(0),
          result: { content: [{ type: 'text', text: 'Deployed api to production.' }] },
        }),
      ),
    );
    const finished = screen.getByRole('region', { name: 'Finished' });
    expect(within(finished).getByTestId('task-status').textContent).toBe('Completed');
    expect(within(finished).getByTestId('task-result').textContent).toBe('Deployed api to production.');
  });

  it('a task completed after its question was declined or cancelled says so, in German too, not a green "Completed"', async () => {
    const app = await renderApp({ view: 'tasks', tasks: [] });
    const finished = (text: string, patch: Partial<TaskView>) =>
      task({
        status: 'completed',
        running: false,
        endedAt: ago(0),
        result: { content: [{ type: 'text', text }] },
        ...patch,
      });
    act(() =>
      app.host.putTask(
        finished('Deploy of api stopped: the user chose decline.', {
          lastAnswer: { action: 'decline', decidedBy: 'human' },
        }),
      ),
    );
    const item = () => document.querySelector('.task-finished')!;
    expect(screen.getByTestId('task-status').textContent).toBe('Declined');
    expect(screen.getByTestId('task-status').className).toBe('pill pill-neutral');
    expect(item().getAttribute('data-task-outcome')).toBe('declined');
    expect(screen.getByTestId('task-outcome-note').textContent).toBe(
      'You declined its question; the server then ended with the reply below.',
    );
    act(() =>
      app.host.putTask(
        finished('Deploy of api stopped: the user chose cancel.', {
          lastAnswer: { action: 'cancel', decidedBy: 'mute-rule' },
        }),
      ),
    );
    expect(screen.getByTestId('task-status').textContent).toBe('Question cancelled');
    expect(screen.getByTestId('task-outcome-note').textContent).toBe(
      'Your rule for this server declined its question; the server then ended with the reply below.',
    );
    // A tool error in the result is not a success either.
    act(() =>
      app.host.putTask(finished('boom', { result: { content: [{ type: 'text', text: 'boom' }], isError: true } })),
    );
    expect(screen.getByTestId('task-status').textContent).toBe('Tool error');
    expect(screen.getByTestId('task-status').className).toBe('pill pill-danger');
  });

  it('in German: "Abgelehnt" with the note in German', async () => {
    await renderApp({
      view: 'tasks',
      settings: { language: 'de' },
      tasks: [
        task({
          status: 'completed',
          running: false,
          endedAt: ago(0),
          lastAnswer: { action: 'decline', decidedBy: 'human' },
        }),
      ],
    });
    expect(screen.getByTestId('task-status').textContent).toBe('Abgelehnt');
    expect(screen.getByTestId('task-outcome-note').textContent).toBe(
      'Sie haben die Frage abgelehnt; der Server hat danach mit der Antwort unten geendet.',
    );
  });

  it('shows a cancel the server ignores as the server reports it, and a failed cancel as an error', async () => {
    const app = await renderApp({ view: 'tasks', tasks: [task()] });
    app.host.failNext('cancelTask', 'the server is unreachable');
    await userEvent.setup().click(screen.getByRole('button', { name: /Cancel task/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cancel failed: the server is unreachable');
    expect(screen.getByTestId('task-status').textContent).toBe('Working');
  });

  it('says so when there are no tasks', async () => {
    await renderApp({ view: 'tasks' });
    expect(screen.getByText('No tasks yet.')).toBeTruthy();
  });
});
