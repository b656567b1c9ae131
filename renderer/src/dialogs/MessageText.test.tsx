import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

describe('a long message', () => {
  // jsdom lays nothing out: the message box is made to report that its text is taller than the box.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('message-text') && !this.classList.contains('message-whole') ? 900 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 200);
  });
  afterEach(() => vi.restoreAllMocks());

  it('says that more follows, and the person can show it whole and shorten it again', async () => {
    const message = 'x'.repeat(2000);
    await renderApp({ questions: [confirmQuestion({ message })] });
    const dialog = await screen.findByRole('dialog');
    const more = await within(dialog).findByRole('button', { name: /More follows: show the whole message \(2000/ });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await userEvent.setup().click(more);
    const less = within(dialog).getByRole('button', { name: 'Show less of the message' });
    expect(less.getAttribute('aria-expanded')).toBe('true');
    expect(dialog.querySelector('.message-text')!.classList.contains('message-whole')).toBe(true);
  });
});
