// Settings → Experimental → app-drawn questions (SEP-3118), in the renderer
// with the in-memory host (which frames no apps): the checkbox sends the
// setting; with it off a question that names an app gets the native form and
// no note; with it on, a host that cannot show the app hands over to the
// native form and says why, and the person's Submit answers as always.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

const question = formQuestion(
  { type: 'object', properties: { note: { type: 'string', title: 'Note' } } },
  { appForm: { resourceUri: 'ui://shop/order.html' } },
);

describe('app-drawn questions (experimental setting)', () => {
  it('is off by default and turned on from Settings, with what it means', async () => {
    const app = await renderApp();
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', { name: /Let a server's app draw its questions/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toMatch(/only proposes values/);
    await user.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(app.host.calls.filter((c) => c.method === 'updateSettings').map((c) => c.params)).toEqual([
      { appQuestions: true },
    ]);
  });

  it('off: the native form, no app asked for, no note', async () => {
    const app = await renderApp({ questions: [question] });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Note')).toBeTruthy();
    expect(within(dialog).queryByTestId('app-question-fallback')).toBeNull();
    expect(app.host.calls.some((c) => c.method === 'openQuestionApp')).toBe(false);
  });

  it('on, where no app can be shown: the native form under a note saying why, answered as always', async () => {
    const app = await renderApp({ questions: [question], settings: { language: 'en', appQuestions: true } });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog');
    const note = await within(dialog).findByTestId('app-question-fallback');
    expect(note.textContent).toContain('could not draw this form');
    expect(note.textContent).toContain('this host cannot show MCP Apps');
    expect(app.host.calls.filter((c) => c.method === 'openQuestionApp').map((c) => c.params)).toEqual([
      { questionId: question.id },
    ]);
    await user.type(within(dialog).getByLabelText('Note'), 'hi');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(app.answers()).toEqual([
        { questionId: question.id, answer: { action: 'accept', content: { note: 'hi' } } },
      ]),
    );
  });
});
