// The sign-in dialog in the question queue (issue 10 §2), over the in-memory
// host: who asks and for which call, the authorization server's host
// emphasised with the shared URL analysis, the issuer, the full link, the
// scopes; Open in browser is the consent, then it waits with Cancel.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SignInQuestion } from '../../../shared/auth/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { confirmQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

let n = 0;
function signIn(patch: Partial<SignInQuestion> = {}): SignInQuestion {
  return {
    id: `sign-in-${++n}`,
    mode: 'sign-in',
    server: 'tracker',
    call: { method: 'tools/call', name: 'list_issues' },
    issuer: 'https://login.example.com',
    url: analyzeUrl(
      'https://login.example.com/authorize?response_type=code&client_id=abc&state=s1&code_challenge=x&code_challenge_method=S256&redirect_uri=http%3A%2F%2F127.0.0.1%3A53100%2Fcallback&scope=issues%3Aread',
    ),
    scopes: ['issues:read', 'offline_access'],
    stepUp: false,
    ...patch,
  };
}

describe('the sign-in dialog', () => {
  it('shows who asks, for which call, the host, the issuer, the link and the scopes; Open, then waiting, then Cancel', async () => {
    const q = signIn();
    const app = await renderApp({ servers: ['tracker'] });
    const user = userEvent.setup();
    act(() => app.host.pushSignIn(q));
    const dialog = await screen.findByRole('dialog', { name: 'tracker asks you to sign in' });
    expect(dialog.getAttribute('data-kind')).toBe('sign-in');
    expect(within(dialog).getByText('list_issues')).toBeTruthy();
    expect(within(dialog).getByText('Sign-in page of the authorization server')).toBeTruthy();
    // The registrable domain is the emphasised part of the host.
    expect(within(dialog).getByTestId('url-host').querySelector('strong')?.textContent).toBe('example.com');
    expect(within(dialog).getByTestId('url-full').textContent).toBe(q.url.href);
    expect(within(dialog).getByTestId('sign-in-issuer').textContent).toBe('https://login.example.com');
    const scopes = within(within(dialog).getByTestId('sign-in-scopes')).getAllByRole('listitem');
    expect(scopes.map((li) => li.textContent)).toEqual(['issues:read', 'offline_access']);

    await user.click(within(dialog).getByRole('button', { name: 'Open in browser' }));
    await within(dialog).findByTestId('sign-in-waiting');
    expect(app.host.calls.filter((c) => c.method === 'openQuestionUrl').map((c) => c.params)).toEqual([
      { questionId: q.id },
    ]);
    expect(within(dialog).queryByRole('button', { name: 'Open in browser' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.answers()).toEqual([{ questionId: q.id, answer: { action: 'cancel' } }]);
  });

  it('waits its turn behind a question already in the queue, and names the agent and a step-up', async () => {
    const first = confirmQuestion();
    const q = signIn({
      call: { method: 'tools/call', name: 'list_issues', agent: 'claude-code#stdio-1' },
      stepUp: true,
    });
    const app = await renderApp({ questions: [first], servers: ['github', 'tracker'] });
    const user = userEvent.setup();
    act(() => app.host.pushSignIn(q));
    expect(screen.getByRole('heading', { name: 'github asks for your confirmation' })).toBeTruthy();
    expect(screen.getByTestId('queue-counter').getAttribute('title')).toBe('1 more question waiting');
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'tracker asks you to sign in' });
    expect(within(dialog).getByText('For the agent claude-code#stdio-1')).toBeTruthy();
    expect(within(dialog).getByTestId('sign-in-step-up')).toBeTruthy();
  });

  it('a plain-http authorization server off this computer is shown blocked, with only Cancel', async () => {
    const q = signIn({ url: analyzeUrl('http://login.example.com/authorize?state=s') });
    const app = await renderApp({ servers: ['tracker'] });
    act(() => app.host.pushSignIn(q));
    const dialog = await screen.findByRole('dialog', { name: 'tracker asks you to sign in' });
    expect(within(dialog).queryByRole('button', { name: 'Open in browser' })).toBeNull();
    expect(within(dialog).getByText('This sign-in page cannot be opened. You can only cancel.')).toBeTruthy();
    expect(dialog.querySelector('[data-code="http-not-loopback"]')).toBeTruthy();
  });

  it('with no call, says who wanted it: the human, or an agent through the gateway (never "you started it")', async () => {
    const app = await renderApp({ servers: ['tracker'] });
    act(() => app.host.pushSignIn(signIn({ call: null, reportedBy: 'gateway' })));
    const relayed = await screen.findByRole('dialog', { name: 'tracker asks you to sign in' });
    expect(within(relayed).getByText(/An agent connected through the gateway needs this server/)).toBeTruthy();
    expect(within(relayed).queryByText(/You started this sign-in yourself/)).toBeNull();
  });

  it('says why when the link could not be opened', async () => {
    const q = signIn({ call: null });
    const app = await renderApp({ servers: ['tracker'] });
    const user = userEvent.setup();
    app.host.setOpenResult({ opened: false, reason: 'no desktop to open it on' });
    act(() => app.host.pushSignIn(q));
    const dialog = await screen.findByRole('dialog', { name: 'tracker asks you to sign in' });
    expect(within(dialog).getByText('You started this sign-in yourself; no call is waiting for it')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Open in browser' }));
    expect((await within(dialog).findByTestId('sign-in-open-failed')).textContent).toContain(
      'no desktop to open it on',
    );
    expect(within(dialog).queryByTestId('sign-in-waiting')).toBeNull();
  });
});
