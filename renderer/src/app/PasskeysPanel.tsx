import { useEffect, useId, useState } from 'react';
import type { HostApi, PasskeyView, Settings } from '../../../shared/host-api/contract';
import { useT } from '../i18n/i18n-context';
import { errorText } from '../state/store';
import { openInTab } from './open-in-tab';

/** What the panel asks of the host. */
export type PasskeysApi = Pick<HostApi, 'listPasskeys' | 'registerPasskey' | 'revokePasskey' | 'on'>;

/** Props: the settings (null while unknown), how to change them, the host, and how a checked link opens in a tab. */
export interface PasskeysPanelProps {
  settings: Settings | null;
  onChange: (patch: Partial<Settings>) => Promise<void> | void;
  api: PasskeysApi;
  openTab?: (href: string) => void;
}

/**
 * Settings → Passkeys: when an Accept needs the person's passkey, and the passkeys registered for it. Registering
 * opens Countersign's own page (this tab's browser in the web shell, the system browser in the desktop app);
 * revoking is one click. The host keeps only public keys; this view sees names and ids.
 */
export default function PasskeysPanel({ settings, onChange, api, openTab = openInTab }: PasskeysPanelProps) {
  const t = useT();
  const id = useId();
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [name, setName] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [server, setServer] = useState('');
  const [tool, setTool] = useState('');

  useEffect(() => {
    const off = api.on('passkeysChanged', (e) => {
      setPasskeys(e.passkeys);
      setStatus(null);
      setError(e.registrationError ?? null);
    });
    api.listPasskeys({}).then(setPasskeys, (e: unknown) => setError(errorText(e)));
    return off;
  }, [api]);

  const policy = settings?.passkeys;
  const setPolicy = (patch: Partial<Settings['passkeys']>) => {
    if (policy) void Promise.resolve(onChange({ passkeys: { ...policy, ...patch } })).catch(() => undefined);
  };
  const register = async () => {
    setError(null);
    try {
      const r = await api.registerPasskey({ name: name.trim() });
      if (r.openHere) openTab(r.openHere);
      setStatus(t('passkeys.registering'));
      setName('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  const revoke = async (passkey: PasskeyView) => {
    setError(null);
    try {
      setPasskeys(await api.revokePasskey({ id: passkey.id }));
    } catch (e) {
      setError(errorText(e));
    }
  };
  const active = (passkeys ?? []).filter((p) => !p.revoked);
  const on = policy ? policy.destructive || policy.every || policy.chosen.length > 0 : false;

  return (
    <section className="card settings-card" aria-labelledby={`${id}-title`} data-testid="passkeys-panel">
      <h3 id={`${id}-title`} className="card-title">
        {t('passkeys.title')}
      </h3>
      <p className="field-hint">{t('passkeys.lede')}</p>
      <fieldset className="settings-row settings-row-top" disabled={!policy}>
        <legend className="settings-label">{t('passkeys.when')}</legend>
        <div className="settings-control">
          <label className="check">
            <input
              type="checkbox"
              checked={policy?.destructive ?? false}
              onChange={(e) => setPolicy({ destructive: e.target.checked })}
            />
            <span>{t('passkeys.destructive')}</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={policy?.every ?? false}
              onChange={(e) => setPolicy({ every: e.target.checked })}
            />
            <span>{t('passkeys.every')}</span>
          </label>
          {(policy?.chosen ?? []).length > 0 && (
            <ul className="passkeys-chosen" aria-label={t('passkeys.chosen')}>
              {policy!.chosen.map((c, i) => (
                <li key={`${c.server}/${c.tool ?? ''}`}>
                  <span>
                    {c.tool === undefined
                      ? t('passkeys.chosenServer', { server: c.server })
                      : t('passkeys.chosenTool', { server: c.server, tool: c.tool })}
                  </span>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => setPolicy({ chosen: policy!.chosen.filter((_, j) => j !== i) })}
                  >
                    {t('passkeys.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="passkeys-add">
            <label htmlFor={`${id}-server`}>{t('passkeys.server')}</label>
            <input id={`${id}-server`} className="input" value={server} onChange={(e) => setServer(e.target.value)} />
            <label htmlFor={`${id}-tool`}>{t('passkeys.tool')}</label>
            <input id={`${id}-tool`} className="input" value={tool} onChange={(e) => setTool(e.target.value)} />
            <button
              type="button"
              className="button button-small"
              disabled={server.trim() === ''}
              onClick={() => {
                if (!policy) return;
                const entry = { server: server.trim(), ...(tool.trim() ? { tool: tool.trim() } : {}) };
                setPolicy({ chosen: [...policy.chosen, entry] });
                setServer('');
                setTool('');
              }}
            >
              {t('passkeys.add')}
            </button>
          </div>
        </div>
      </fieldset>
      {on && passkeys !== null && active.length === 0 && (
        <p className="banner banner-warning" data-testid="passkeys-none">
          {t('passkeys.none')}
        </p>
      )}
      <h4 className="settings-subtitle">{t('passkeys.registered')}</h4>
      {passkeys !== null && passkeys.length === 0 && <p className="field-hint">{t('passkeys.empty')}</p>}
      {passkeys !== null && passkeys.length > 0 && (
        <ul className="passkeys-list" data-testid="passkeys-list">
          {passkeys.map((p) => (
            <li key={p.id}>
              <span className="passkey-name">{p.name}</span>{' '}
              {p.revoked ? (
                <span className="passkey-revoked">{t('passkeys.revokedAt', { when: p.revoked })}</span>
              ) : (
                <button type="button" className="button button-small" onClick={() => void revoke(p)}>
                  {t('passkeys.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="passkeys-add">
        <label htmlFor={`${id}-name`}>{t('passkeys.name')}</label>
        <input
          id={`${id}-name`}
          className="input"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <button
          type="button"
          className="button button-primary"
          disabled={name.trim() === ''}
          onClick={() => void register()}
        >
          {t('passkeys.register')}
        </button>
      </div>
      {status && (
        <p className="banner banner-info" role="status" data-testid="passkeys-status">
          {status}
        </p>
      )}
      {error && (
        <p className="banner banner-danger" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
