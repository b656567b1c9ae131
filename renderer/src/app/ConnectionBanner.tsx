// Tells the human when the web shell's connection is gone: without it, a
// question could be waiting in the host while the page shows nothing.
import { useT } from '../i18n/i18n-context';

/** The connection states a front end reports (Electron's IPC has none: always undefined). */
export type ConnectionView = 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed' | undefined;

/** A banner for a lost or failed connection; nothing while all is well. */
export default function ConnectionBanner({ state }: { state: ConnectionView }) {
  const t = useT();
  if (state === 'reconnecting') {
    return (
      <p className="banner banner-warning" role="status">
        {t('app.connection.reconnecting')}
      </p>
    );
  }
  if (state === 'failed' || state === 'closed') {
    return (
      <p className="banner banner-danger" role="alert">
        {t('app.connection.failed')}
      </p>
    );
  }
  return null;
}
