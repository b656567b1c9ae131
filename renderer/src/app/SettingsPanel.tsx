import { useId } from 'react';
import type { Settings } from '../../../shared/host-api/contract';
import { useT } from '../i18n/i18n-context';
import { systemLanguage } from '../i18n/translate';

/** Props: the current settings (null while unknown) and how to change them. */
export interface SettingsPanelProps {
  settings: Settings | null;
  onChange: (patch: Partial<Settings>) => void;
}

/** Language (system, English, German) and appearance (system, light, dark). */
export default function SettingsPanel({ settings, onChange }: SettingsPanelProps) {
  const t = useT();
  const languageId = useId();
  const themeId = useId();
  const systemName = t(`settings.language.${systemLanguage()}`);
  return (
    <section className="settings" aria-labelledby={`${languageId}-title`}>
      <h2 id={`${languageId}-title`} className="settings-title">
        {t('settings.title')}
      </h2>
      <div className="settings-row">
        <label htmlFor={languageId}>{t('settings.language')}</label>
        <select
          id={languageId}
          className="input select"
          value={settings?.language ?? 'system'}
          disabled={!settings}
          onChange={(e) => onChange({ language: e.target.value as Settings['language'] })}
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
          onChange={(e) => onChange({ theme: e.target.value as Settings['theme'] })}
        >
          <option value="system">{t('settings.theme.system')}</option>
          <option value="light">{t('settings.theme.light')}</option>
          <option value="dark">{t('settings.theme.dark')}</option>
        </select>
      </div>
    </section>
  );
}
