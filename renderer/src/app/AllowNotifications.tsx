import { useState } from 'react';
import { useT } from '../i18n/i18n-context';

// Only a browser tab asks: the desktop app (window.countersign, from the preload) notifies from main.
function browserNotifications(): boolean {
  return typeof Notification !== 'undefined' && !('countersign' in window);
}

/** Web shell: asks for notification permission only when the person presses the button, never on load. */
export default function AllowNotifications() {
  const t = useT();
  const [permission, setPermission] = useState(() => (browserNotifications() ? Notification.permission : null));
  if (permission === null) return null;
  return (
    <section className="settings-notifications" aria-labelledby="settings-notifications-title">
      <h2 id="settings-notifications-title">{t('settings.notifications.title')}</h2>
      <p className="muted">{t(`settings.notifications.${permission}`)}</p>
      {permission === 'default' && (
        <button
          type="button"
          className="button"
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          {t('settings.notifications.allow')}
        </button>
      )}
    </section>
  );
}
