import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confirmQuestion, origin } from '../testing/questions';
import { renderApp } from '../testing/render-app';

async function open(extra: Parameters<typeof confirmQuestion>[0] = {}, options: Parameters<typeof renderApp>[0] = {}) {
  const question = confirmQuestion(extra);
  const app = await renderApp({ questions: [question], ...options });
  const dialog = await screen.findByRole('dialog');
  return { app, question, dialog, user: userEvent.setup() };
}

describe('ConfirmDialog', () => {
  it('shows only who asks, why, the message, and Cancel, Decline and Accept as labelled buttons', async () => {
    const { dialog } = await open({
      origin: origin({
        server: 'files',
        method: 'prompts/get',
        name: 'cleanup',
        argumentsSummary: 'dir="/tmp"',
        round: 2,
      }),
    });
    expect(within(dialog).getByRole('heading', { name: 'files asks for your confirmation' })).toBeTruthy();
    expect(within(dialog).getByText('Prompt')).toBeTruthy();
    expect(within(dialog).getByText('cleanup')).toBeTruthy();
    expect(within(dialog).getByText('Round 2')).toBeTruthy();
    // A call the human made in the app itself names no agent.
    expect(within(dialog).queryByText(/For the agent/)).toBeNull();
    expect(within(dialog).getByText('Delete the branch "old-ui"?')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent || b.getAttribute('aria-label')),
    ).toEqual(['Cancel: dismiss without answering', 'Cancel', 'Decline', 'Accept']);
  });

  it('says when the server marks the tool destructive, and puts the danger accent on Accept', async () => {
    const { dialog } = await open({
      origin: origin({
        server: 'tt',
        method: 'tools/call',
        name: 'delete_time_entry',
        toolHints: { destructive: true },
      }),
    });
    expect(within(dialog).getByText(/The server marks this tool destructive/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Accept' }).className).toContain('button-danger');
    expect(within(dialog).getByRole('button', { name: 'Accept' }).className).not.toContain('button-primary');
  });

  it('says when the server marks the tool read-only; Accept keeps its usual look', async () => {
    const { dialog } = await open({
      origin: origin({ server: 'tt', method: 'tools/call', name: 'list', toolHints: { readOnly: true } }),
    });
    expect(within(dialog).getByText(/The server marks this tool read-only/)).toBeTruthy();
    expect(within(dialog).queryByText(/destructive/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Accept' }).className).toContain('button-primary');
  });

  it('names the agent whose call asks, when it came through the gateway', async () => {
    const { dialog } = await open({
      origin: origin({ server: 'files', method: 'tools/call', name: 'rm', agent: 'claude-code#stdio-3f9a1c' }),
    });
    expect(within(dialog).getByText('For the agent claude-code#stdio-3f9a1c')).toBeTruthy();
    expect(within(dialog).queryByText('Server, call and agent as reported by the gateway')).toBeNull();
  });

  it("says that relayed labels are the gateway's word", async () => {
    const { dialog } = await open({
      origin: origin({ server: 'files', method: 'tools/call', name: 'rm', agent: 'a#1', reportedBy: 'gateway' }),
    });
    expect(within(dialog).getByText('Server, call and agent as reported by the gateway')).toBeTruthy();
  });

  it('focus starts on the dialog, not on Accept, and a stray Enter answers nothing', async () => {
    const { app, dialog, user } = await open();
    expect(document.activeElement).toBe(dialog);
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Accept' }));
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(app.answers()).toHaveLength(0);
  });

  it('Accept by click sends accept with empty content', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: {} });
  });

  it('Accept by keyboard: Tab to it, then Enter (or Space)', async () => {
    const { app, user } = await open();
    await user.tab(); // close
    await user.tab(); // Cancel
    await user.tab(); // Decline
    await user.tab(); // Accept
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Accept' }));
    await user.keyboard(' ');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: {} });
  });

  it('Decline sends decline; Escape, the close button and the labelled Cancel send cancel', async () => {
    for (const [act, expected] of [
      [
        async (u: ReturnType<typeof userEvent.setup>) => u.click(screen.getByRole('button', { name: 'Decline' })),
        { action: 'decline' },
      ],
      [async (u: ReturnType<typeof userEvent.setup>) => u.keyboard('{Escape}'), { action: 'cancel' }],
      [
        async (u: ReturnType<typeof userEvent.setup>) =>
          u.click(screen.getByRole('button', { name: 'Cancel: dismiss without answering' })),
        { action: 'cancel' },
      ],
      [
        async (u: ReturnType<typeof userEvent.setup>) => u.click(screen.getByRole('button', { name: 'Cancel' })),
        { action: 'cancel' },
      ],
    ] as const) {
      const { app, user, dialog } = await open();
      await act(user);
      await waitFor(() => expect(app.answers()).toHaveLength(1));
      expect(app.answers()[0]!.answer).toEqual(expected);
      expect(dialog.isConnected).toBe(false);
      app.unmount();
    }
  });

  it('the labelled Cancel arms like every answer button: an early click is refused', async () => {
    const { app, user } = await open({}, { armDelayMs: 3_000 });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel.getAttribute('aria-disabled')).toBe('true');
    await user.click(cancel);
    expect(app.answers()).toHaveLength(0);
  });

  it('ignores a held (auto-repeating) Enter on Accept', async () => {
    const { app } = await open();
    const accept = screen.getByRole('button', { name: 'Accept' });
    accept.focus();
    const repeat = fireEvent.keyDown(accept, { key: 'Enter', repeat: true });
    expect(repeat).toBe(false); // default (activation) prevented
    expect(app.answers()).toHaveLength(0);
  });

  it('ignores clicks in the first moments after it appears (a double click meant for the previous dialog)', async () => {
    // Far longer than the clicks below take even on a loaded machine (300 ms failed once at load 11);
    // the wait for the button to arm ends when it arms, not on a clock.
    const { app, user } = await open({}, { armDelayMs: 3_000 });
    const accept = screen.getByRole('button', { name: 'Accept' });
    expect(accept.getAttribute('aria-disabled')).toBe('true'); // shown as not yet active
    expect(accept.hasAttribute('data-arming')).toBe(true);
    await user.click(accept);
    await user.keyboard('{Escape}');
    expect(app.answers()).toHaveLength(0);
    await waitFor(() => expect(accept.getAttribute('aria-disabled')).toBeNull(), { timeout: 10_000 });
    expect(accept.hasAttribute('data-arming')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
  });

  it('in German', async () => {
    await open({}, { settings: { language: 'de' } });
    expect(screen.getByRole('button', { name: 'Zustimmen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abbrechen: schließen, ohne zu antworten' })).toBeTruthy();
    expect(screen.getByText('Esc schließt, ohne zu antworten.')).toBeTruthy();
  });

  it('says so when the server sent no message', async () => {
    await open({ message: '   ' });
    expect(screen.getByText('The server sent no message.')).toBeTruthy();
  });
});
