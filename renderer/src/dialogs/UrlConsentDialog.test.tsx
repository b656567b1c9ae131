import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import type { UrlQuestion } from '../../../shared/elicitation/types';
import { urlQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

async function open(href: string, options: Parameters<typeof renderApp>[0] = {}) {
  const question: UrlQuestion = { ...urlQuestion(), url: analyzeUrl(href) };
  const app = await renderApp({ questions: [question], ...options });
  const dialog = await screen.findByRole('dialog');
  return { app, question, dialog, user: userEvent.setup() };
}

const calls = (app: Awaited<ReturnType<typeof renderApp>>, method: string) =>
  app.host.calls.filter((c) => c.method === method);
const warningCodes = (dialog: HTMLElement) =>
  [...dialog.querySelectorAll('[data-code]')].map((e) => e.getAttribute('data-code'));

describe('UrlConsentDialog: the link, before anything happens', () => {
  it('shows the full link with the registrable domain strongest, never as a link, and loads nothing', async () => {
    const { dialog, app } = await open('https://accounts.example.com/oauth/authorize?client_id=abc&state=xyz');
    expect(within(dialog).getByRole('heading', { name: 'calendar asks you to open a link' })).toBeTruthy();
    const host = within(dialog).getByTestId('url-host');
    expect(host.textContent).toBe('accounts.example.com');
    expect(host.querySelector('strong')?.textContent).toBe('example.com');
    const full = within(dialog).getByTestId('url-full');
    expect(full.textContent).toBe('https://accounts.example.com/oauth/authorize?client_id=abc&state=xyz');
    expect(full.querySelector('.url-scheme')?.textContent).toBe('https://');
    expect(full.querySelector('.url-path')?.textContent).toBe('/oauth/authorize');
    expect(full.querySelector('.url-query')?.textContent).toBe('?client_id=abc&state=xyz');
    expect(dialog.querySelector('a, img, iframe, link, object, embed')).toBeNull();
    expect(within(dialog).getByText('Nothing has been opened or loaded yet.')).toBeTruthy();
    expect(calls(app, 'openQuestionUrl')).toHaveLength(0);
    expect(warningCodes(dialog)).toEqual([]);
  });

  it('shows an internationalised host in Unicode and in its xn-- form, with the Punycode warning', async () => {
    const { dialog } = await open('https://www.bücher.example/shop');
    expect(within(dialog).getByTestId('url-host').textContent).toBe('www.bücher.example');
    expect(within(dialog).getByTestId('url-host').querySelector('strong')?.textContent).toBe('bücher.example');
    expect(within(dialog).getByTestId('url-ascii').textContent).toBe('www.xn--bcher-kva.example');
    expect(within(dialog).getByTestId('url-full').textContent).toBe('https://www.xn--bcher-kva.example/shop');
    expect(warningCodes(dialog)).toContain('punycode');
    expect(within(dialog).getByText(/internationalised \(Punycode\)/)).toBeTruthy();
  });

  it.each([
    ['mixed-script', 'https://pаypal.com/login'], // Cyrillic а
    ['credentials', 'https://paypal.com@evil.example/'],
    ['raw-ip', 'https://203.0.113.9/login'],
    ['too-long', `https://example.com/${'a'.repeat(2100)}`],
  ])('warns: %s', async (code, href) => {
    const { dialog } = await open(href);
    // This mixed-script host also imitates paypal.com: its one warning is the most specific, "confusable".
    expect(warningCodes(dialog)).toContain(code === 'mixed-script' ? 'confusable' : code);
    // A look-alike host opens only by a second, deliberate step; the others by the primary button.
    const open1 = code === 'mixed-script' ? 'Open anyway…' : 'Open in browser';
    expect(within(dialog).getByRole('button', { name: open1 })).toBeTruthy();
  });

  it('a look-alike link gets one warning for its one problem, and the note names the button it has', async () => {
    const { dialog } = await open('https://pаypal.com/login');
    const codes = warningCodes(dialog);
    expect(codes.filter((c) => c === 'confusable' || c === 'mixed-script' || c === 'punycode')).toHaveLength(1);
    expect(within(dialog).queryByText(/Open in browser/)).toBeNull();
    expect(within(dialog).getByText(/Open anyway takes you to this address/)).toBeTruthy();
  });

  it('keeps focus inside the dialog after "Open anyway…", and Escape still cancels', async () => {
    const { dialog, app, user } = await open('https://pаypal.com/login');
    await user.click(within(dialog).getByRole('button', { name: 'Open anyway…' }));
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByTestId('url-lookalike-stop'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });

  it('Escape cancels and Tab comes back into the dialog even when focus fell to the page', async () => {
    const { dialog, app, user } = await open('https://example.com/x');
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });

  it('shows embedded credentials struck through, apart from the real host', async () => {
    const { dialog } = await open('https://paypal.com@evil.example/');
    expect(dialog.querySelector('.url-userinfo')?.textContent).toBe('paypal.com@');
    expect(within(dialog).getByTestId('url-host').textContent).toBe('evil.example');
  });
});

describe('UrlConsentDialog: blocked links', () => {
  it.each([
    ['javascript:alert(1)', 'blocked-scheme'],
    ['file:///etc/passwd', 'blocked-scheme'],
    ['data:text/html,<script>alert(1)</script>', 'blocked-scheme'],
    ['myapp://do/something', 'blocked-scheme'],
    ['http://[not a url', 'unparseable'],
  ])('%s cannot be opened or copied: only Decline and Cancel', async (href, code) => {
    const { dialog, app, user } = await open(href);
    expect(warningCodes(dialog)).toContain(code);
    expect(within(dialog).queryByRole('button', { name: 'Open in browser' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Copy link' })).toBeNull();
    expect(within(dialog).getByText(/This link cannot be opened/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'decline' });
    expect(calls(app, 'openQuestionUrl')).toHaveLength(0);
  });

  it('a blocked plain-http link keeps Copy link, and its block reads red, not amber', async () => {
    const { dialog } = await open('http://example.com/login');
    expect(warningCodes(dialog)).toContain('http-not-loopback');
    expect(within(dialog).queryByRole('button', { name: 'Open in browser' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(within(dialog).getByText(/You can copy it, decline or cancel/)).toBeTruthy();
    const item = dialog.querySelector('[data-code="http-not-loopback"]')!;
    expect(item.classList.contains('url-warning-block')).toBe(true);
  });

  it('names the blocked scheme', async () => {
    await open('javascript:alert(1)');
    expect(screen.getByText('Links of this kind (javascript:) are never opened.')).toBeTruthy();
  });

  it('allows http to this computer', async () => {
    const { dialog } = await open('http://127.0.0.1:8765/callback');
    expect(within(dialog).getByRole('button', { name: 'Open in browser' })).toBeTruthy();
  });
});

describe('UrlConsentDialog: consent, then wait', () => {
  it('Open in browser asks the host to open it, then “I’m done, continue” answers accept', async () => {
    const { app, user, question } = await open('https://example.com/connect');
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect(await screen.findByTestId('url-waiting')).toBeTruthy();
    expect(calls(app, 'openQuestionUrl').map((c) => c.params)).toEqual([{ questionId: question.id }]);
    expect(document.activeElement).toBe(screen.getByTestId('url-waiting'));
    expect(screen.queryByRole('button', { name: 'Open in browser' })).toBeNull();
    expect(app.answers()).toHaveLength(0); // opening is not an answer
    await user.click(screen.getByRole('button', { name: 'I’m done, continue' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept' });
  });

  it('Cancel while waiting answers cancel', async () => {
    const { app, user } = await open('https://example.com/connect');
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });

  it('by keyboard: Tab to Open, Enter; then Tab to continue, Enter', async () => {
    const { app, user } = await open('https://example.com/connect');
    screen.getByRole('button', { name: 'Decline' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open in browser' }));
    await user.keyboard('{Enter}');
    await screen.findByTestId('url-waiting');
    await user.tab(); // Cancel
    await user.tab(); // Decline: still there after the link is open
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'I’m done, continue' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept' });
  });

  it('a refusal by the host is shown and the link can be declined', async () => {
    const { app, user } = await open('https://example.com/connect');
    app.host.setOpenResult({ opened: false, reason: 'no system browser' });
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The link was not opened: no system browserI opened it myself',
    );
    expect(screen.getByRole('button', { name: 'Open in browser' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });
});

describe('UrlConsentDialog: copy link', () => {
  it('copies through the clipboard', async () => {
    const { user } = await open('https://Example.com/a b');
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe('https://example.com/a%20b');
    expect(screen.getByText('Link copied.')).toBeTruthy();
  });

  it('falls back to selecting the link when the clipboard refuses', async () => {
    const { user } = await open('https://example.com/x');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText(/The link is selected/)).toBeTruthy();
    const selection = window.getSelection()!;
    expect(selection.rangeCount).toBe(1);
    expect(selection.getRangeAt(0).toString()).toBe('https://example.com/x');
    expect(document.activeElement).toBe(screen.getByTestId('url-full'));
  });
});
