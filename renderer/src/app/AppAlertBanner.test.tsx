import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HostEvents } from '../../../shared/host-api/contract';
import { I18nProvider } from '../i18n/i18n-context';
import AppAlertBanner from './AppAlertBanner';

/** The one event this banner listens to, pushed by hand as the host would. */
function alerts() {
  const listeners = new Set<(a: HostEvents['appAlert']) => void>();
  return {
    api: {
      on: ((event: string, l: (a: HostEvents['appAlert']) => void) => {
        expect(event).toBe('appAlert');
        listeners.add(l);
        return () => listeners.delete(l);
      }) as never,
    },
    push: (a: HostEvents['appAlert']) => act(() => listeners.forEach((l) => l(a))),
  };
}

describe('the approval-channel banner', () => {
  it('shows nothing until the host reports a replaced socket, then an alert naming it, then that it is bound again', () => {
    const host = alerts();
    render(
      <I18nProvider language="en">
        <AppAlertBanner api={host.api} />
      </I18nProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    host.push({ kind: 'socket-replaced', message: 'another process replaced the approval socket /x/approval.sock' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Another program took over Countersign’s approval socket');
    expect(alert.textContent).toContain('/x/approval.sock');
    host.push({ kind: 'socket-restored', message: 'bound again' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('bound again; agents reach this app');
  });
});
