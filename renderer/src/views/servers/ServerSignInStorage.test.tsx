// How the Servers view says where a sign-in is kept: encrypted with a key in
// the OS keychain is a plain line; a plain 0600 file (no keychain reachable)
// is a warning; DPoP-bound tokens say so.
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../shared/host-api/contract';
import { renderApp } from '../../testing/render-app';

const base = (signIn: NonNullable<ServerView['signIn']>): ServerView => ({
  name: 'tracker',
  entry: { url: 'https://mcp.tracker.example/mcp' },
  status: 'connected',
  muted: false,
  signIn,
});
const signedIn = { needed: false, signedIn: true, issuer: 'https://login.tracker.example', scopes: ['issues:read'] };
const block = () =>
  within(document.querySelector<HTMLElement>('.server-card[data-server="tracker"]')!).getByTestId('server-sign-in');

describe('where the Servers view says a sign-in is kept', () => {
  it('a plain file (no OS keychain) is a warning in plain words, the platform error behind Details', async () => {
    const storage =
      'not encrypted: no keychain is available, so tokens are kept unencrypted in a file only your user can read';
    const storageDetails =
      'no OS keychain could be reached: Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled';
    await renderApp({
      serverViews: [base({ ...signedIn, storage, storageDetails, storageEncrypted: false })],
      view: 'servers',
    });
    await waitFor(() => expect(block()).toBeTruthy());
    const line = within(block()).getByText(
      'No keychain is available, so tokens are kept unencrypted in a file only your user can read.',
    );
    const banner = line.closest<HTMLElement>('.banner')!;
    expect(banner.className).toContain('banner-warning');
    expect(banner.getAttribute('data-encrypted')).toBe('false');
    // The raw platform error is not the first thing read: it sits in a closed toggle.
    expect(line.textContent).not.toContain('DBus');
    const details = banner.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('Details').tagName).toBe('SUMMARY');
    expect(within(details).getByText(storageDetails)).toBeTruthy();
  });

  it('encrypted with a keychain key is a plain line; DPoP-bound tokens say so', async () => {
    const storage = 'encrypted (AES-256-GCM) with a key kept in the Secret Service keyring (D-Bus)';
    await renderApp({
      serverViews: [base({ ...signedIn, storage, storageEncrypted: true, boundToKey: true })],
      view: 'servers',
    });
    await waitFor(() => expect(block()).toBeTruthy());
    const line = within(block()).getByText(`Kept: ${storage}`);
    expect(line.className).not.toContain('banner');
    expect(line.getAttribute('data-encrypted')).toBe('true');
    expect(within(block()).getByText(/^Bound to a key kept on this computer \(DPoP\)/)).toBeTruthy();
  });
});
