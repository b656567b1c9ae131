import type { Settings } from '../../../../shared/host-api/contract';
import AllowNotifications from '../../app/AllowNotifications';
import PasskeysPanel, { type PasskeysApi } from '../../app/PasskeysPanel';
import SettingsPanel from '../../app/SettingsPanel';
import { useT } from '../../i18n/i18n-context';
import ViewHeader from '../ViewHeader';

/** Props: the settings and how to change them. */
export interface SettingsViewProps {
  settings: Settings | null;
  onChange: (patch: Partial<Settings>) => Promise<void> | void;
  /** The host, for the passkeys (absent: the panel is not shown). */
  api?: PasskeysApi;
}

/** The Settings view: the settings panel under the view header. */
export default function SettingsView({ settings, onChange, api }: SettingsViewProps) {
  const t = useT();
  return (
    <div className="view view-settings">
      <ViewHeader title={t('settings.title')} lede={t('settings.lede')} />
      <SettingsPanel settings={settings} onChange={onChange} />
      {api && <PasskeysPanel settings={settings} onChange={onChange} api={api} />}
      <AllowNotifications />
    </div>
  );
}
