import { useId, useState } from 'react';
import type { ServerSignInView } from '../../../../shared/auth/types';
import { useT } from '../../i18n/i18n-context';
import { useAction } from './use-action';

/** Props: the server's sign-in state (never a token), and what the buttons do. */
export interface ServerSignInProps {
  server: string;
  signIn: ServerSignInView;
  onSignIn: (scopes?: string[]) => Promise<void>;
  onSignOut: () => Promise<void>;
}

/**
 * A server's sign-in in the Servers view: signed in (issuer, permissions,
 * expiry, where it is kept) with Sign out and "Sign in again with more
 * permissions"; or, for a server that asks for a sign-in, that state and a
 * Sign in button, not an error.
 */
export default function ServerSignIn({ server, signIn, onSignIn, onSignOut }: ServerSignInProps) {
  const t = useT();
  const id = useId();
  const { busy: running, problem, run } = useAction<'sign-in' | 'sign-out'>();
  const busy = running !== null;
  const [more, setMore] = useState<string | null>(null);
  const scopes = signIn.scopes ?? [];

  return (
    <section className="server-sign-in" aria-labelledby={`${id}-state`} data-testid="server-sign-in">
      {signIn.signedIn ? (
        <>
          <p id={`${id}-state`} className="sign-in-state" data-signed-in="true">
            {t('servers.signIn.signedIn')}
          </p>
          {signIn.issuer && (
            <p className="sign-in-detail mono" dir="ltr">
              {t('servers.signIn.issuer', { issuer: signIn.issuer })}
            </p>
          )}
          <p className="sign-in-detail">
            {scopes.length > 0
              ? t('servers.signIn.scopes', { scopes: scopes.join(' ') })
              : t('servers.signIn.noScopes')}
          </p>
          {signIn.expiresAt && (
            <p className="sign-in-detail">
              {t('servers.signIn.expires', { time: new Date(signIn.expiresAt).toLocaleString() })}
              {signIn.renewable ? ` (${t('servers.signIn.renewable')})` : ''}
            </p>
          )}
        </>
      ) : (
        <>
          <p id={`${id}-state`} className="sign-in-state sign-in-needed" data-signed-in="false">
            {t('servers.signIn.needed')}
          </p>
          <p className="sign-in-detail">{t('servers.signIn.neededHint')}</p>
        </>
      )}
      {signIn.signedIn && signIn.boundToKey && <p className="sign-in-detail">{t('servers.signIn.boundToKey')}</p>}
      {/* Not encrypted (no OS keychain reachable) is a warning, not a footnote: said in plain words,
          with the platform library's own error behind a toggle for whoever wants to fix it. */}
      {signIn.storageEncrypted === false ? (
        <div className="banner banner-warning" data-encrypted="false">
          <p>{t('servers.signIn.notEncrypted')}</p>
          <details className="sign-in-storage-details">
            <summary>{t('servers.signIn.details')}</summary>
            <p className="mono" dir="ltr">
              {signIn.storageDetails ?? signIn.storage}
            </p>
          </details>
        </div>
      ) : (
        <p
          className="sign-in-detail"
          data-encrypted={signIn.storageEncrypted === undefined ? undefined : String(signIn.storageEncrypted)}
        >
          {t('servers.signIn.storage', { storage: signIn.storage })}
        </p>
      )}
      {signIn.error && (
        <p className="banner banner-danger" role="alert">
          {t('servers.signIn.failed', { error: signIn.error })}
        </p>
      )}
      {problem && (
        <p className="banner banner-danger" role="alert">
          {problem}
        </p>
      )}
      <div className="sign-in-actions">
        {signIn.signedIn ? (
          <>
            <button
              type="button"
              className="button button-small"
              aria-disabled={busy || undefined}
              onClick={() => void run('sign-out', onSignOut)}
            >
              {t('action.signOut')}
            </button>
            {more === null ? (
              <button type="button" className="button button-small" onClick={() => setMore('')}>
                {t('action.signInMore')}
              </button>
            ) : (
              <form
                className="sign-in-actions"
                onSubmit={(e) => {
                  e.preventDefault();
                  const asked = more.split(/\s+/).filter(Boolean);
                  void run('sign-in', () => onSignIn([...scopes, ...asked])).then(() => setMore(null));
                }}
              >
                <label htmlFor={`${id}-more`}>{t('servers.signIn.more')}</label>
                <input
                  id={`${id}-more`}
                  className="input mono"
                  dir="ltr"
                  value={more}
                  onChange={(e) => setMore(e.target.value)}
                />
                <button type="submit" className="button button-small button-primary">
                  {t('action.signIn')}
                </button>
              </form>
            )}
          </>
        ) : (
          <button
            type="button"
            className="button button-small button-primary"
            aria-disabled={busy || undefined}
            aria-label={`${t('action.signIn')}: ${server}`}
            onClick={() => void run('sign-in', () => onSignIn())}
          >
            {t('action.signIn')}
          </button>
        )}
      </div>
    </section>
  );
}
