// The passkey pages as the browser tests and the bench drive them: a virtual
// authenticator (CTAP2, user verification on, presence automatic) per tab,
// Countersign's ceremony page, and the passkey step's dialog in the app.
import type { CDPSession, Page } from 'playwright-core';

export type Credential = GotCredentials[number];
type GotCredentials = Awaited<ReturnType<typeof getCredentials>>['credentials'];
export const getCredentials = (cdp: CDPSession, authenticatorId: string) =>
  cdp.send('WebAuthn.getCredentials', { authenticatorId });

/** Gives `tab` a virtual authenticator holding `credentials` (an authenticator lives per tab). */
export async function authenticatorFor(
  tab: Page,
  credentials: readonly Credential[] = [],
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await tab.context().newCDPSession(tab);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  for (const credential of credentials) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
  return { cdp, authenticatorId };
}

/** The ceremony page in `tab`: press its button once it is ready and wait until it ended; the state it ended in. */
export async function confirmOn(tab: Page): Promise<string> {
  await tab.locator('#ceremony[data-state="ready"]').waitFor();
  await tab.click('#confirm');
  const ended = tab.locator('#ceremony:not([data-state="ready"]):not([data-state="working"])');
  await ended.waitFor();
  return (await ended.getAttribute('data-state')) ?? '';
}

/**
 * Presses "Open confirmation page" until it takes (a new dialog's buttons ignore clicks for a moment), then waits
 * for the waiting note: the button goes away once the tab opened, which can take longer than one try's wait.
 */
export async function openStep(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm with your passkey' });
  const open = dialog.getByRole('button', { name: 'Open confirmation page', exact: true });
  const waiting = dialog.getByTestId('passkey-waiting');
  for (let i = 0; i < 40 && (await open.count()) > 0 && (await waiting.count()) === 0; i++) {
    await open.click({ timeout: 5000 }).catch(() => undefined);
    await waiting.waitFor({ timeout: 250 }).catch(() => undefined);
  }
  await waiting.waitFor();
}
