// The Settings view: the round limit (checked before it is sent), history
// redaction, language and theme, all through updateSettings.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';

const updates = (app: Awaited<ReturnType<typeof renderApp>>) =>
  app.host.calls.filter((c) => c.method === 'updateSettings').map((c) => c.params);

describe('Settings view', () => {
  it('sends a valid round limit on Enter or leaving the field, and explains an invalid one', async () => {
    const app = await renderApp({ settings: { maxRounds: 10 } });
    const user = userEvent.setup();
    const rounds = screen.getByLabelText('Round limit') as HTMLInputElement;
    expect(rounds.value).toBe('10');
    expect(document.getElementById(rounds.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toMatch(
      /^How many times one call/,
    );
    await user.clear(rounds);
    await user.type(rounds, '101{Enter}');
    expect(screen.getByText('Enter a whole number from 1 to 100.')).toBeTruthy();
    expect(rounds.getAttribute('aria-invalid')).toBe('true');
    await user.clear(rounds);
    await user.type(rounds, '3');
    expect(screen.queryByText('Enter a whole number from 1 to 100.')).toBeNull();
    await user.tab();
    await waitFor(() => expect(updates(app)).toEqual([{ maxRounds: 3 }]));
    await user.click(rounds);
    await user.tab(); // unchanged: nothing sent
    expect(updates(app)).toHaveLength(1);
  });

  it('turns history redaction on and off, with what it means', async () => {
    const app = await renderApp();
    const user = userEvent.setup();
    const redact = screen.getByRole('checkbox', { name: 'Keep answer values out of the history' }) as HTMLInputElement;
    expect(document.getElementById(redact.getAttribute('aria-describedby')!)?.textContent).toMatch(/never the values/);
    await user.click(redact);
    await waitFor(() => expect(redact.checked).toBe(true));
    await user.click(redact);
    await waitFor(() => expect(redact.checked).toBe(false));
    expect(updates(app)).toEqual([{ redactHistory: true }, { redactHistory: false }]);
  });

  it('chooses what notifications show: server and tool by default, the question on request', async () => {
    const app = await renderApp();
    const user = userEvent.setup();
    const detail = screen.getByLabelText('Notifications show') as HTMLSelectElement;
    expect(detail.value).toBe('names');
    expect(document.getElementById(detail.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /arguments are never shown/,
    );
    await user.selectOptions(detail, 'message');
    await waitFor(() => expect(detail.value).toBe('message'));
    expect(updates(app)).toEqual([{ notificationDetail: 'message' }]);
  });

  it('shows a setting the host refused', async () => {
    const app = await renderApp();
    app.host.failNext('updateSettings', 'settings.json is read-only');
    await userEvent.setup().selectOptions(screen.getByLabelText('Appearance'), 'dark');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The setting could not be saved: settings.json is read-only',
    );
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('speaks German', async () => {
    await renderApp({ settings: { language: 'de' } });
    expect(screen.getByRole('heading', { level: 2, name: 'Einstellungen' })).toBeTruthy();
    expect(screen.getByLabelText('Rundenlimit')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Antwortwerte nicht im Verlauf speichern' })).toBeTruthy();
  });
});
