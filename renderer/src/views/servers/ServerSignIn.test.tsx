// The Servers view's sign-in state (issue 10 §4): a server that needs a
// sign-in shows that and a Sign in button, not an error; a signed-in server
// shows the issuer, the permissions and the expiry, with Sign out and
// "Sign in again with more permissions".
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../shared/host-api/contract';
import { renderApp } from '../../testing/render-app';

const storage = 'a file only your user can read (not encrypted)';
const needs: ServerView = {
  name: 'tracker',
  entry: { url: 'https://mcp.tracker.example/mcp' },
  status: 'idle',
  muted: false,
  signIn: { needed: true, signedIn: false, storage },
};
const signedIn: ServerView = {
  ...needs,
  status: 'connected',
  signIn: {
    needed: false,
    signedIn: true,
    issuer: 'https://login.tracker.example',
    scopes: ['issues:read'],
    expiresAt: '2026-12-02T03:00:00.000Z',
    renewable: true,
    storage,
  },
};

const card = () => document.querySelector<HTMLElement>('.server-card[data-server="tracker"]')!;

describe('sign-in in the Servers view', () => {
  it('a server that needs a sign-in shows that state and a Sign in button, not an error', async () => {
    const app = await renderApp({ serverViews: [needs], view: 'servers' });
    const user = userEvent.setup();
    await waitFor(() => expect(card()).toBeTruthy());
    const block = within(card()).getByTestId('server-sign-in');
    expect(within(block).getByText('Sign-in needed')).toBeTruthy();
    expect(card().querySelector('.server-error')).toBeNull();
    await user.click(within(block).getByRole('button', { name: 'Sign in: tracker' }));
    await waitFor(() =>
      expect(app.host.calls.filter((c) => c.method === 'signIn').map((c) => c.params)).toEqual([{ server: 'tracker' }]),
    );
  });

  it('a signed-in server shows issuer, permissions and expiry; Sign out and Sign in again with more permissions', async () => {
    const app = await renderApp({ serverViews: [signedIn], view: 'servers' });
    const user = userEvent.setup();
    await waitFor(() => expect(card()).toBeTruthy());
    const block = within(card()).getByTestId('server-sign-in');
    expect(within(block).getByText('Signed in')).toBeTruthy();
    expect(within(block).getByText('Issuer: https://login.tracker.example')).toBeTruthy();
    expect(within(block).getByText('Permissions: issues:read')).toBeTruthy();
    expect(within(block).getByText(/^Token expires .*\(renews by itself\)$/)).toBeTruthy();
    expect(within(block).getByText(`Kept: ${storage}`)).toBeTruthy();

    await user.click(within(block).getByRole('button', { name: 'Sign in again with more permissions' }));
    await user.type(within(block).getByLabelText('More permissions (space-separated)'), 'issues:write');
    await user.click(within(block).getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(app.host.calls.filter((c) => c.method === 'signIn').map((c) => c.params)).toEqual([
        { server: 'tracker', scopes: ['issues:read', 'issues:write'] },
      ]),
    );

    await user.click(within(block).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(card()).getByText('Sign-in needed')).toBeTruthy());
    expect(app.host.calls.filter((c) => c.method === 'signOut').map((c) => c.params)).toEqual([{ server: 'tracker' }]);
  });

  it('a failed sign-in is shown in the host’s words', async () => {
    await renderApp({
      serverViews: [{ ...needs, signIn: { ...needs.signIn!, error: 'the sign-in was refused: no S256' } }],
      view: 'servers',
    });
    await waitFor(() => expect(card()).toBeTruthy());
    expect(screen.getByRole('alert').textContent).toBe('Sign-in failed: the sign-in was refused: no S256');
  });
});
