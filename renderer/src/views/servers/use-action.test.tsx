// The one busy/problem runner behind the server card's and the sign-in
// block's buttons: on its own, then through both components that use it.
import { act, cleanup, render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../shared/host-api/contract';
import ServerCard from './ServerCard';
import ServerSignIn from './ServerSignIn';
import { useAction } from './use-action';

afterEach(cleanup);

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useAction', () => {
  it('names the running action, refuses a second one meanwhile, and is idle after', async () => {
    const { result } = renderHook(() => useAction<'a' | 'b'>());
    const first = deferred();
    let seconds = 0;
    let done!: Promise<void>;
    act(() => {
      done = result.current.run('a', () => first.promise);
    });
    expect(result.current.busy).toBe('a');
    await act(() => result.current.run('b', async () => void seconds++));
    expect(seconds).toBe(0);
    expect(result.current.busy).toBe('a');
    await act(async () => {
      first.resolve();
      await done;
    });
    expect(result.current.busy).toBeNull();
    expect(result.current.problem).toBeNull();
  });

  it('runs once when asked twice before React redraws', async () => {
    const { result } = renderHook(() => useAction<'a'>());
    let runs = 0;
    await act(async () => {
      const run = result.current.run;
      await Promise.all([run('a', async () => void runs++), run('a', async () => void runs++)]);
    });
    expect(runs).toBe(1);
  });

  it('keeps why an action failed (never throws), and clears it when the next one starts', async () => {
    const { result } = renderHook(() => useAction<'a'>());
    await act(() => result.current.run('a', () => Promise.reject(new Error('the server is unreachable'))));
    expect(result.current.problem).toBe('the server is unreachable');
    expect(result.current.busy).toBeNull();
    await act(() => result.current.run('a', () => Promise.reject('plain string')));
    expect(result.current.problem).toBe('plain string');
    const retry = deferred();
    let done!: Promise<void>;
    act(() => {
      done = result.current.run('a', () => retry.promise);
    });
    expect(result.current.problem).toBeNull();
    await act(async () => {
      retry.resolve();
      await done;
    });
    expect(result.current.problem).toBeNull();
  });
});

const server: ServerView = {
  name: 'kimai',
  entry: { command: 'kimai-mcp', args: [] },
  status: 'connected',
  muted: false,
};

describe('the server card runs its buttons through useAction', () => {
  it('Reconnect says so while it runs, shows why it failed, and a retry clears the alert', async () => {
    const user = userEvent.setup();
    const attempts: Array<ReturnType<typeof deferred>> = [];
    const onReconnect = () => {
      const d = deferred();
      attempts.push(d);
      return d.promise;
    };
    const none = async () => {};
    render(
      <ServerCard
        server={server}
        colour={0}
        onEdit={() => {}}
        onOpenTools={() => {}}
        onReconnect={onReconnect}
        onRemove={none}
        onMute={none}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Reconnect' }));
    const busyButton = screen.getByRole('button', { name: 'Reconnecting…' });
    expect(busyButton.getAttribute('aria-disabled')).toBe('true');
    await user.click(busyButton);
    expect(attempts).toHaveLength(1);
    await act(async () => attempts[0]!.reject(new Error('the server is unreachable')));
    expect(screen.getByRole('alert').textContent).toBe('the server is unreachable');
    const button = screen.getByRole('button', { name: 'Reconnect' });
    expect(button.getAttribute('aria-disabled')).toBeNull();

    await user.click(button);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => attempts[1]!.resolve());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(attempts).toHaveLength(2);
  });
});

describe('the sign-in block runs its buttons through useAction', () => {
  it('Sign out is marked busy while it runs, and a failure shows why', async () => {
    const user = userEvent.setup();
    const out = deferred();
    render(
      <ServerSignIn
        server="tracker"
        signIn={{ needed: false, signedIn: true, storage: 'the OS keychain' }}
        onSignIn={async () => {}}
        onSignOut={() => out.promise}
      />,
    );
    const block = screen.getByTestId('server-sign-in');
    await user.click(within(block).getByRole('button', { name: 'Sign out' }));
    expect(within(block).getByRole('button', { name: 'Sign out' }).getAttribute('aria-disabled')).toBe('true');
    await act(async () => out.reject(new Error('the keychain is locked')));
    expect(within(block).getByRole('alert').textContent).toBe('the keychain is locked');
    expect(within(block).getByRole('button', { name: 'Sign out' }).getAttribute('aria-disabled')).toBeNull();
  });
});
