// Says at once when the approval channel is not what it should be: another
// program removed or took over the app's approval socket (the host notices
// and sends appAlert). Until then agents' questions may not reach this
// window, so the human must know now, not from a log.
import { useEffect, useState } from 'react';
import type { HostApi, HostEvents } from '../../../shared/host-api/contract';
import { useT } from '../i18n/i18n-context';

type Alert = HostEvents['appAlert'];

/** The latest approval-channel alert as a banner; nothing until there is one. */
export default function AppAlertBanner({ api }: { api: Pick<HostApi, 'on'> }) {
  const t = useT();
  const [alert, setAlert] = useState<Alert | null>(null);
  useEffect(() => api.on('appAlert', setAlert), [api]);
  if (!alert) return null;
  const restored = alert.kind === 'socket-restored';
  return (
    <div
      className={`banner ${restored ? 'banner-warning' : 'banner-danger'}`}
      role={restored ? 'status' : 'alert'}
      data-alert={alert.kind}
    >
      <p>{t(`app.alert.${alert.kind}`)}</p>
      <p className="banner-detail">{alert.message}</p>
    </div>
  );
}
