import { useEffect, useId, useState } from 'react';
import type { Settings } from '../../../shared/host-api/contract';
import { useT } from '../i18n/i18n-context';
import { systemLanguage } from '../i18n/translate';
import { errorText } from '../state/store';
import { MAX_MAX_ROUNDS, MIN_MAX_ROUNDS } from '../../../shared/round-limit';

/** Props: the current settings (null while unknown) and how to change them (a rejection is shown). */
export interface SettingsPanelProps {
  settings: Settings | null;
  onChange: (patch: Partial<Settings>) => Promise<void> | void;
}

/** The round limit's bounds (the contract's, from shared/round-limit). */
const MIN_ROUNDS = MIN_MAX_ROUNDS;
const MAX_ROUNDS = MAX_MAX_ROUNDS;

/** Time limits offered for an open question, in minutes; 0 is none (the default). */
const TIME_LIMITS = [0, 5, 15, 30, 60, 240];

/** Language, appearance, the round limit and history redaction, all saved on the host. */
export default function SettingsPanel({ settings, onChange }: SettingsPanelProps) {
  const t = useT();
  const id = useId();
  const languageId = `${id}-language`;
  const themeId = `${id}-theme`;
  const roundsId = `${id}-rounds`;
  const redactId = `${id}-redact`;
  const limitId = `${id}-limit`;
  const noticeId = `${id}-notice`;
  const systemName = t(`settings.language.${systemLanguage()}`);
  const [rounds, setRounds] = useState(String(settings?.maxRounds ?? ''));
  const [roundsError, setRoundsError] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  useEffect(() => {
    if (settings) setRounds(String(settings.maxRounds));
  }, [settings]);

  const change = async (patch: Partial<Settings>) => {
    setSaveError(null);
    try {
      await onChange(patch);
    } catch (err) {
      setSaveError(errorText(err));
    }
  };
  const commitRounds = () => {
    if (!settings) return;
    const n = Number(rounds);
    const ok = /^\d+$/.test(rounds.trim()) && n >= MIN_ROUNDS && n <= MAX_ROUNDS;
    setRoundsError(!ok);
    if (ok && n !== settings.maxRounds) void change({ maxRounds: n });
  };

  return (
    <div className="settings">
      <section className="card settings-card" aria-labelledby={`${id}-display`}>
        <h3 id={`${id}-display`} className="card-title">
          {t('settings.section.display')}
        </h3>
        <div className="settings-row">
          <label htmlFor={languageId}>{t('settings.language')}</label>
          <select
            id={languageId}
            className="input select"
            value={settings?.language ?? 'system'}
            disabled={!settings}
            onChange={(e) => void change({ language: e.target.value as Settings['language'] })}
          >
            <option value="system">{t('settings.language.system', { language: systemName })}</option>
            <option value="en">{t('settings.language.en')}</option>
            <option value="de">{t('settings.language.de')}</option>
          </select>
        </div>
        <div className="settings-row">
          <label htmlFor={themeId}>{t('settings.theme')}</label>
          <select
            id={themeId}
            className="input select"
            value={settings?.theme ?? 'system'}
            disabled={!settings}
            onChange={(e) => void change({ theme: e.target.value as Settings['theme'] })}
          >
            <option value="system">{t('settings.theme.system')}</option>
            <option value="light">{t('settings.theme.light')}</option>
            <option value="dark">{t('settings.theme.dark')}</option>
          </select>
        </div>
      </section>
      <section className="card settings-card" aria-labelledby={`${id}-questions`}>
        <h3 id={`${id}-questions`} className="card-title">
          {t('settings.section.questions')}
        </h3>
        <div className="settings-row settings-row-top">
          <label htmlFor={roundsId}>{t('settings.maxRounds')}</label>
          <div className={`settings-control${roundsError ? ' field-invalid' : ''}`}>
            <input
              id={roundsId}
              className="input input-number"
              type="number"
              inputMode="numeric"
              min={MIN_ROUNDS}
              max={MAX_ROUNDS}
              step={1}
              value={rounds}
              disabled={!settings}
              aria-invalid={roundsError || undefined}
              aria-describedby={`${roundsId}-hint${roundsError ? ` ${roundsId}-error` : ''}`}
              onChange={(e) => {
                setRounds(e.target.value);
                setRoundsError(false);
              }}
              onBlur={commitRounds}
              onKeyDown={(e) => {
                if (e.key === 'Enter') commitRounds();
              }}
            />
            <p id={`${roundsId}-hint`} className="field-hint">
              {t('settings.maxRoundsHint')}
            </p>
            {roundsError && (
              <p id={`${roundsId}-error`} className="field-errors">
                {t('settings.maxRoundsError', { min: MIN_ROUNDS, max: MAX_ROUNDS })}
              </p>
            )}
          </div>
        </div>
        <div className="settings-row settings-row-top">
          <label htmlFor={limitId}>{t('settings.timeLimit')}</label>
          <div className="settings-control">
            <select
              id={limitId}
              className="input select"
              value={settings?.questionTimeLimitMinutes ?? 0}
              disabled={!settings}
              aria-describedby={`${limitId}-hint`}
              onChange={(e) => void change({ questionTimeLimitMinutes: Number(e.target.value) })}
            >
              {TIME_LIMITS.map((m) => (
                <option key={m} value={m}>
                  {m === 0 ? t('settings.timeLimit.none') : t('settings.timeLimit.minutes', { minutes: m })}
                </option>
              ))}
            </select>
            <p id={`${limitId}-hint`} className="field-hint">
              {t('settings.timeLimitHint')}
            </p>
          </div>
        </div>
        <div className="settings-row settings-row-top">
          <label htmlFor={noticeId}>{t('settings.noticeDetail')}</label>
          <div className="settings-control">
            <select
              id={noticeId}
              className="input select"
              value={settings?.notificationDetail ?? 'names'}
              disabled={!settings}
              aria-describedby={`${noticeId}-hint`}
              onChange={(e) => void change({ notificationDetail: e.target.value === 'message' ? 'message' : 'names' })}
            >
              <option value="names">{t('settings.noticeDetail.names')}</option>
              <option value="message">{t('settings.noticeDetail.message')}</option>
            </select>
            <p id={`${noticeId}-hint`} className="field-hint">
              {t('settings.noticeDetailHint')}
            </p>
          </div>
        </div>
        <div className="settings-row settings-row-top">
          <span className="settings-label" id={`${redactId}-label`}>
            {t('settings.history')}
          </span>
          <div className="settings-control">
            <label className="check">
              <input
                id={redactId}
                type="checkbox"
                checked={settings?.redactHistory ?? false}
                disabled={!settings}
                aria-describedby={`${redactId}-hint`}
                onChange={(e) => void change({ redactHistory: e.target.checked })}
              />
              <span>{t('settings.redact')}</span>
            </label>
            <p id={`${redactId}-hint`} className="field-hint">
              {t('settings.redactHint')}
            </p>
          </div>
        </div>
      </section>
      {saveError && (
        <p className="banner banner-danger" role="alert">
          {t('settings.saveFailed', { error: saveError })}
        </p>
      )}
    </div>
  );
}
