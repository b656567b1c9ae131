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
  const appQuestionsId = `${id}-app-questions`;
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
        <SettingSelect
          id={languageId}
          label={t('settings.language')}
          value={settings?.language ?? 'system'}
          disabled={!settings}
          options={[
            ['system', t('settings.language.system', { language: systemName })],
            ['en', t('settings.language.en')],
            ['de', t('settings.language.de')],
          ]}
          onChange={(language) => void change({ language })}
        />
        <SettingSelect
          id={themeId}
          label={t('settings.theme')}
          value={settings?.theme ?? 'system'}
          disabled={!settings}
          options={[
            ['system', t('settings.theme.system')],
            ['light', t('settings.theme.light')],
            ['dark', t('settings.theme.dark')],
          ]}
          onChange={(theme) => void change({ theme })}
        />
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
        <SettingSelect
          id={limitId}
          label={t('settings.timeLimit')}
          hint={t('settings.timeLimitHint')}
          value={String(settings?.questionTimeLimitMinutes ?? 0)}
          disabled={!settings}
          options={TIME_LIMITS.map((m) => [
            String(m),
            m === 0 ? t('settings.timeLimit.none') : t('settings.timeLimit.minutes', { minutes: m }),
          ])}
          onChange={(m) => void change({ questionTimeLimitMinutes: Number(m) })}
        />
        <SettingSelect
          id={noticeId}
          label={t('settings.noticeDetail')}
          hint={t('settings.noticeDetailHint')}
          value={settings?.notificationDetail ?? 'names'}
          disabled={!settings}
          options={[
            ['names', t('settings.noticeDetail.names')],
            ['message', t('settings.noticeDetail.message')],
          ]}
          onChange={(notificationDetail) => void change({ notificationDetail })}
        />
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
        <div className="settings-row settings-row-top">
          <span className="settings-label" id={`${appQuestionsId}-label`}>
            {t('settings.experimental')}
          </span>
          <div className="settings-control">
            <label className="check">
              <input
                id={appQuestionsId}
                type="checkbox"
                checked={settings?.appQuestions ?? false}
                disabled={!settings}
                aria-describedby={`${appQuestionsId}-hint`}
                onChange={(e) => void change({ appQuestions: e.target.checked })}
              />
              <span>{t('settings.appQuestions')}</span>
            </label>
            <p id={`${appQuestionsId}-hint`} className="field-hint">
              {t('settings.appQuestionsHint')}
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

interface SettingSelectProps<V extends string> {
  id: string;
  label: string;
  /** A line under the control, which it is described by. */
  hint?: string;
  value: V;
  disabled: boolean;
  /** Value and label of each choice, in order. */
  options: ReadonlyArray<readonly [V, string]>;
  /** Told only values from `options`: what the select reports is looked up there, never cast. */
  onChange: (value: V) => void;
}

/** One setting chosen from a list: its label, the select and, if any, the hint under it. */
function SettingSelect<V extends string>({
  id,
  label,
  hint,
  value,
  disabled,
  options,
  onChange,
}: SettingSelectProps<V>) {
  const select = (
    <select
      id={id}
      className="input select"
      value={value}
      disabled={disabled}
      aria-describedby={hint ? `${id}-hint` : undefined}
      onChange={(e) => {
        const picked = options.find(([v]) => v === e.target.value);
        if (picked) onChange(picked[0]);
      }}
    >
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
  if (!hint)
    return (
      <div className="settings-row">
        <label htmlFor={id}>{label}</label>
        {select}
      </div>
    );
  return (
    <div className="settings-row settings-row-top">
      <label htmlFor={id}>{label}</label>
      <div className="settings-control">
        {select}
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      </div>
    </div>
  );
}
