import { useEffect, useId, useRef, useState } from 'react';
import type { ServerView } from '../../../../shared/host-api/contract';
import ServerBadge from '../../dialogs/ServerBadge';
import { useT } from '../../i18n/i18n-context';
import { entrySummary } from './server-form-model';
import ServerSignIn from './ServerSignIn';
import ServerStatus from './ServerStatus';
import { useAction } from './use-action';

/** Props: the server, its badge colour, and what its buttons do (each may fail; the card shows why). */
export interface ServerCardProps {
  server: ServerView;
  colour: number;
  onEdit: () => void;
  onOpenTools: () => void;
  /** The id of the one explanation of "Stop asking this session" the view shows for every card. */
  muteHintId?: string;
  onReconnect: () => Promise<void>;
  onRemove: () => Promise<void>;
  onMute: (muted: boolean) => Promise<void>;
  /** HTTP servers that sign in: start a sign-in (more scopes optional), or sign out. */
  onSignIn?: (scopes?: string[]) => Promise<void>;
  onSignOut?: () => Promise<void>;
}

/**
 * One configured server: its name and state (connecting, connected with era
 * and protocol version, or the error and why), how it is started, its
 * actions, and the "Stop asking this session" switch with what it does.
 */
export default function ServerCard({
  server,
  colour,
  onEdit,
  onOpenTools,
  onReconnect,
  onRemove,
  onMute,
  onSignIn,
  onSignOut,
  muteHintId,
}: ServerCardProps) {
  const t = useT();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const { busy, problem, run, button } = useAction<'reconnect' | 'remove' | 'mute'>();
  const removeButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);

  useEffect(() => {
    // Focus follows the swap between Remove and its confirmation (not on first draw).
    if (!opened.current) {
      opened.current = true;
      return;
    }
    (confirming ? keepButton : removeButton).current?.focus();
  }, [confirming]);

  const titleId = `${id}-name`;
  const muteHint = `${id}-mute-hint`;
  const stdio = 'command' in server.entry;
  return (
    <li className="card server-card" aria-labelledby={titleId} data-server={server.name} data-status={server.status}>
      <div className="server-head">
        <ServerBadge server={server.name} colour={colour} />
        <div className="server-heading">
          <h3 id={titleId} className="server-name" tabIndex={-1}>
            {server.name}
          </h3>
          <p className="server-entry">
            <span className="server-transport">
              {t(stdio ? 'servers.transport.stdioShort' : 'servers.transport.httpShort')}
            </span>
            <span className="mono server-command" title={entrySummary(server.entry)}>
              {entrySummary(server.entry)}
            </span>
          </p>
        </div>
        <div className="server-state">
          {server.muted && <span className="pill pill-warning">{t('servers.mutedPill')}</span>}
          <ServerStatus server={server} />
        </div>
      </div>

      {server.signIn && onSignIn && onSignOut && (server.signIn.needed || server.signIn.signedIn) && (
        <ServerSignIn server={server.name} signIn={server.signIn} onSignIn={onSignIn} onSignOut={onSignOut} />
      )}

      {server.status === 'error' && server.needs?.length ? (
        <div className="server-error server-needs">
          <p>{t('servers.needsValue')}</p>
          <ul>
            {server.needs.map((need) => (
              <li key={need} className="mono" dir="auto">
                {need}
              </li>
            ))}
          </ul>
          <p className="field-hint">{t('servers.needsValueHint')}</p>
        </div>
      ) : (
        server.status === 'error' &&
        server.error && (
          <p className="server-error">
            <span className="server-error-label">{t('servers.errorReason')}</span> {server.error}
          </p>
        )
      )}

      {problem && (
        <p className="banner banner-danger" role="alert">
          {problem}
        </p>
      )}

      <div className="server-foot">
        <div className="server-mute">
          <label className="check">
            <input
              type="checkbox"
              checked={server.muted}
              aria-describedby={server.muted || !muteHintId ? muteHint : muteHintId}
              aria-disabled={busy === 'mute' || undefined}
              onChange={(e) => void run('mute', () => onMute(e.target.checked))}
            />
            <span>{t('servers.mute')}</span>
          </label>
          {/* Off, the view explains the switch once for every card; on, each card says it is on. */}
          {(server.muted || !muteHintId) && (
            <p id={muteHint} className={server.muted ? 'mute-hint mute-on' : 'mute-hint'}>
              {server.muted ? t('servers.muteOn') : t('servers.muteHint')}
            </p>
          )}
        </div>

        {confirming ? (
          <div className="server-actions confirm-remove" role="group" aria-labelledby={`${id}-confirm`}>
            <p id={`${id}-confirm`} className="confirm-text">
              {t('servers.removeConfirm', { name: server.name })}
            </p>
            <button ref={keepButton} type="button" className="button button-small" onClick={() => setConfirming(false)}>
              {t('servers.keep')}
            </button>
            <button type="button" className="button button-small button-danger" {...button('remove', onRemove)}>
              {t('servers.remove')}
            </button>
          </div>
        ) : (
          <div className="server-actions">
            <button type="button" className="button button-small" onClick={onOpenTools}>
              {t('servers.openTools')}
            </button>
            <button type="button" className="button button-small" {...button('reconnect', onReconnect)}>
              {busy === 'reconnect' ? t('servers.reconnecting') : t('servers.reconnect')}
            </button>
            <button type="button" className="button button-small" onClick={onEdit}>
              {t('servers.edit')}
            </button>
            <button
              ref={removeButton}
              type="button"
              className="button button-small button-quiet-danger"
              onClick={() => setConfirming(true)}
            >
              {t('servers.remove')}
            </button>
          </div>
        )}
      </div>
    </li>
  );
}
