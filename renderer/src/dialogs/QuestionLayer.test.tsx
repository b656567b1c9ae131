import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confirmQuestion, formQuestion, origin, urlQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

const badge = () => document.querySelector('.server-badge')!;

describe('many questions at once', () => {
  it('shows one in front, counts the rest, and answers each exactly once in arrival order', async () => {
    const q1 = confirmQuestion({ origin: origin({ server: 'github' }) });
    const q2 = formQuestion(
      { type: 'object', properties: { a: { type: 'string', title: 'Alpha', default: 'x' } } },
      { origin: origin({ server: 'files', name: 'write' }) },
    );
    const q3 = urlQuestion();
    const app = await renderApp({ questions: [q1], servers: ['github', 'files', 'calendar'] });
    const user = userEvent.setup();
    act(() => {
      app.host.push(q2);
      app.host.push(q3);
    });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByTestId('queue-counter').getAttribute('title')).toBe('2 more questions waiting');
    expect(screen.getByText('2 more waiting')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'github asks for your confirmation' })).toBeTruthy();
    const githubColour = badge().getAttribute('data-colour');

    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('heading', { name: 'files asks for information' })).toBeTruthy();
    expect(screen.getByTestId('queue-counter').getAttribute('title')).toBe('1 more question waiting');
    expect(badge().getAttribute('data-colour')).not.toBe(githubColour);

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'calendar asks you to open a link' })).toBeTruthy();
    expect(screen.queryByTestId('queue-counter')).toBeNull();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.answers()).toEqual([
      { questionId: q1.id, answer: { action: 'accept', content: {} } },
      { questionId: q2.id, answer: { action: 'accept', content: { a: 'x' } } },
      { questionId: q3.id, answer: { action: 'cancel' } },
    ]);
    expect(app.host.waiting()).toHaveLength(0);
    expect(screen.getByText('No questions are waiting.')).toBeTruthy();
  });

  it('a double click answers once, and the next question is not answered by it', async () => {
    const q1 = confirmQuestion();
    const q2 = confirmQuestion({ origin: origin({ server: 'files' }) });
    // The guard is long enough that a loaded machine still clicks the second dialog "too soon";
    // the first one is clicked once it shows itself active, not after a guessed wait.
    const app = await renderApp({ questions: [q1, q2], armDelayMs: 2_000 });
    const user = userEvent.setup();
    const first = screen.getByRole('button', { name: 'Accept' });
    await waitFor(() => expect(first.getAttribute('aria-disabled')).not.toBe('true'), { timeout: 10_000 });
    await user.dblClick(first);
    await screen.findByRole('heading', { name: 'files asks for your confirmation' });
    await user.click(screen.getByRole('button', { name: 'Accept' })); // too soon after it appeared
    expect(app.answers()).toEqual([{ questionId: q1.id, answer: { action: 'accept', content: {} } }]);
  });

  it('a question whose call was cancelled disappears from the front with a note', async () => {
    const q1 = formQuestion(
      { type: 'object', properties: { a: { type: 'string' } } },
      { origin: origin({ server: 'files' }) },
    );
    const q2 = confirmQuestion();
    const app = await renderApp({ questions: [q1, q2] });
    act(() => app.host.withdraw(q1.id, 'call-cancelled'));
    expect(await screen.findByText('The question from files was withdrawn: its call was cancelled.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'github asks for your confirmation' })).toBeTruthy();
    expect(screen.queryByTestId('queue-counter')).toBeNull();
    expect(app.answers()).toHaveLength(0);
  });

  it('a waiting question whose server went away leaves the count with a note, and notes can be dismissed', async () => {
    const q1 = confirmQuestion();
    const q2 = confirmQuestion({ origin: origin({ server: 'weather' }) });
    const app = await renderApp({ questions: [q1, q2] });
    const user = userEvent.setup();
    act(() => app.host.withdraw(q2.id, 'server-gone', 'Process exited with code 1.'));
    const note = await screen.findByText(/The question from weather was withdrawn: the server went away\./);
    expect(note.textContent).toContain('Process exited with code 1.');
    expect(screen.queryByTestId('queue-counter')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/weather/)).toBeNull();
  });

  it('the app behind a dialog is inert, and becomes usable again afterwards', async () => {
    const app = await renderApp({ questions: [confirmQuestion()] });
    const user = userEvent.setup();
    expect(document.querySelector('.app')!.hasAttribute('inert')).toBe(true);
    await waitFor(() => expect(document.title).toBe('Countersign (1)'));
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(document.querySelector('.app')!.hasAttribute('inert')).toBe(false));
    await waitFor(() => expect(document.title).toBe('Countersign'));
    expect(app.answers()).toHaveLength(1);
  });
});

describe('settings', () => {
  it('switches language and theme through the host settings', async () => {
    const app = await renderApp();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Language'), 'de');
    expect(await screen.findByText('Keine Fragen warten.')).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    await user.selectOptions(screen.getByLabelText('Darstellung'), 'dark');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    await user.selectOptions(screen.getByLabelText('Darstellung'), 'system');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBeUndefined());
    expect(app.host.calls.filter((c) => c.method === 'updateSettings').map((c) => c.params)).toEqual([
      { language: 'de' },
      { theme: 'dark' },
      { theme: 'system' },
    ]);
  });

  it('follows the system language when set to system', async () => {
    await renderApp({ settings: { language: 'system' } });
    // jsdom's navigator.languages is en-US
    const select = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(within(select).getByText('System (English)')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });

  it('says so when the host cannot be reached', async () => {
    const app = await renderApp();
    app.unmount();
    const { createInMemoryHost } = await import('../api/in-memory-host');
    const { createStores } = await import('../app/stores');
    const { render } = await import('@testing-library/react');
    const App = (await import('../app/App')).default;
    const host = createInMemoryHost();
    const stores = createStores({ ...host.api, listQuestions: () => Promise.reject(new Error('connection refused')) });
    render(<App stores={stores} armDelayMs={0} />);
    await act(() => stores.start());
    expect(screen.getByRole('alert').textContent).toBe('Countersign cannot reach its host: connection refused');
  });
});

describe('removal notes', () => {
  it('fade after their time, each on its own clock', async () => {
    const { render } = await import('@testing-library/react');
    const RemovalNotes = (await import('./RemovalNotes')).default;
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const dismissed: string[] = [];
      const note = (id: string) => ({ id, questionId: id, server: 's', reason: 'timeout' as const });
      const view = render(
        <RemovalNotes notes={[note('a')]} onDismiss={(id) => dismissed.push(id)} autoDismissMs={1000} />,
      );
      act(() => {
        vi.advanceTimersByTime(600);
      });
      view.rerender(
        <RemovalNotes notes={[note('a'), note('b')]} onDismiss={(id) => dismissed.push(id)} autoDismissMs={1000} />,
      );
      act(() => {
        vi.advanceTimersByTime(500);
      });
      expect(dismissed).toEqual(['a']);
      act(() => {
        vi.advanceTimersByTime(600);
      });
      expect(dismissed).toEqual(['a', 'b']);
      expect(screen.getAllByText('The question from s timed out.')).toHaveLength(2); // the parent removes them
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a link question within a round', () => {
  // A round of two put at once: `first` is question 1, `second` question 2.
  function round(first: 'confirm' | 'url') {
    const keys = first === 'url' ? ['ticket', 'confirm'] : ['confirm', 'ticket'];
    const at = (key: string) =>
      origin({ key, roundPosition: { index: keys.indexOf(key) + 1, count: 2, keys, roundId: 'r1' } });
    return { confirm: confirmQuestion({ origin: at('confirm') }), url: urlQuestion({}, { origin: at('ticket') }) };
  }
  const opens = (app: Awaited<ReturnType<typeof renderApp>>) =>
    app.host.calls.filter((c) => c.method === 'openQuestionUrl');

  it('keeps its "opened" step when the human goes back past it and returns', async () => {
    const { confirm, url } = round('confirm');
    const app = await renderApp({ questions: [confirm, url] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accept, next' }));
    await user.click(await screen.findByRole('button', { name: 'Open in browser' }));
    await screen.findByTestId('url-waiting');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(await screen.findByRole('button', { name: 'Accept, next' }));

    // Back on the link: still opened, so no second consent and no second opening.
    expect(await screen.findByTestId('url-waiting')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open in browser' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('url-waiting'));
    expect(opens(app)).toHaveLength(1);
    expect(app.answers()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'I’m done, send 2 answers' }));
    await waitFor(() => expect(app.answers()).toHaveLength(2));
    expect(app.answers()).toEqual([
      { questionId: confirm.id, answer: { action: 'accept', content: {} } },
      { questionId: url.id, answer: { action: 'accept' } },
    ]);
  });

  it('keeps it after "I’m done, continue", and after "I opened it myself" when the host could not open it', async () => {
    for (const way of ['opened', 'myself'] as const) {
      const { confirm, url } = round('url');
      const app = await renderApp({ questions: [url, confirm] });
      const user = userEvent.setup();
      if (way === 'myself') app.host.setOpenResult({ opened: false, reason: 'no system browser' });
      await user.click(screen.getByRole('button', { name: 'Open in browser' }));
      if (way === 'myself') await user.click(await screen.findByRole('button', { name: 'I opened it myself' }));
      await user.click(await screen.findByRole('button', { name: 'I’m done, next' }));
      await screen.findByRole('heading', { name: 'github asks for your confirmation' });
      await user.click(screen.getByRole('button', { name: 'Back' }));

      expect(await screen.findByTestId('url-waiting')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Open in browser' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Decline' })).toBeTruthy();
      expect(app.answers()).toEqual([]);
      // Changing the answer is still possible: Decline, then the rest of the round.
      await user.click(screen.getByRole('button', { name: 'Decline' }));
      await user.click(await screen.findByRole('button', { name: 'Accept and send 2 answers' }));
      await waitFor(() => expect(app.answers()).toHaveLength(2));
      expect(app.answers()[0]).toEqual({ questionId: url.id, answer: { action: 'decline' } });
      expect(opens(app)).toHaveLength(1);
      app.unmount();
    }
  });

  it('the next link question, outside the round, starts at its consent: no opening carries over', async () => {
    const { confirm, url } = round('confirm');
    const other = urlQuestion();
    const app = await renderApp({ questions: [confirm, url, other] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accept, next' }));
    await user.click(await screen.findByRole('button', { name: 'Open in browser' }));
    await user.click(await screen.findByRole('button', { name: 'I’m done, send 2 answers' }));
    await waitFor(() => expect(app.answers()).toHaveLength(2));
    // The next link question is a question of its own: nothing of the last one's opening carries over.
    await waitFor(() => expect(document.querySelector(`[data-question-id="${other.id}"]`)).not.toBeNull());
    expect(screen.getByRole('button', { name: 'Open in browser' })).toBeTruthy();
    expect(screen.queryByTestId('url-waiting')).toBeNull();
    expect(app.stores.queue.getState().opened).toEqual({});
  });
});

describe('a round of three, put at once', () => {
  function round() {
    const keys = ['project', 'confirm', 'ticket'];
    const at = (key: string) =>
      origin({ key, roundPosition: { index: keys.indexOf(key) + 1, count: 3, keys, roundId: 'r3' } });
    return [
      formQuestion(
        { type: 'object', properties: { project: { type: 'string', title: 'Project' } } },
        { origin: at('project') },
      ),
      confirmQuestion({ origin: at('confirm'), message: 'Log this time?' }),
      urlQuestion({}, { origin: at('ticket') }),
    ] as const;
  }

  it('says "Next" before the last question and what the last one sends; "Still to come" names titles', async () => {
    const [form, confirm, url] = round();
    const app = await renderApp({ questions: [form, confirm, url] });
    const user = userEvent.setup();
    const position = await screen.findByTestId('round-position');
    expect(position.textContent).toContain('Still to come: Log this time?; accounts.example.com.');
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Accept, next' }));
    // The link question: opening is one button, sending the round another.
    await user.click(await screen.findByRole('button', { name: 'Open in browser' }));
    await screen.findByTestId('url-waiting');
    expect(app.answers()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'I’m done, send 3 answers' }));
    await waitFor(() => expect(app.answers()).toHaveLength(3));
  });

  it('Escape leaves the whole round with one press, and the footer says so beforehand', async () => {
    const [form, confirm, url] = round();
    const app = await renderApp({ questions: [form, confirm, url] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Accept, next' });
    expect(screen.getByText('Esc cancels the whole round: none of its 3 answers is sent.')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(app.answers()).toHaveLength(3));
    expect(app.answers().map((a) => a.answer)).toEqual([
      { action: 'cancel' },
      { action: 'cancel' },
      { action: 'cancel' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
