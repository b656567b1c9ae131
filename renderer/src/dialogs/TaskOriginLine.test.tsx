import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
