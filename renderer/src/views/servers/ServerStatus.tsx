import type { ServerView } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';

/** A server's connection state as a small pill: connecting, connected (era and protocol version), error or idle. */
export default function ServerStatus({ server }: { server: ServerView }) {
  const t = useT();
  switch (server.status) {
    case 'connecting':
      return (
        <span className="pill pill-info" data-status="connecting">
          <span className="pill-spinner" aria-hidden="true" />
          {t('servers.status.connecting')}
        </span>
      );
    case 'connected':
      return (
        <span className="status-group" data-status="connected">
          <span className="pill pill-success">
            <span className="pill-dot" aria-hidden="true" />
            {t('servers.status.connected')}
          </span>
          {server.era && <span className="pill pill-neutral">{t(`servers.era.${server.era}`)}</span>}
          {server.protocolVersion && (
            <span className="pill pill-neutral">{t('servers.protocol', { version: server.protocolVersion })}</span>
          )}
        </span>
      );
    case 'error':
      return (
        <span className="pill pill-danger" data-status="error">
          <span className="pill-dot" aria-hidden="true" />
          {t('servers.status.error')}
        </span>
      );
    default:
      return (
        <span className="pill pill-neutral" data-status="idle">
          {t('servers.status.idle')}
        </span>
      );
  }
}
