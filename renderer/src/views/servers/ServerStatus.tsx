import type { ServerView } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';

/** A server's connection state as a small pill: connecting, connected (era and protocol version), error or idle. */
export default function ServerStatus({ server }: { server: ServerView }) {
  const t = useT();
  switch (server.status) {
    case 'connecting':
      return <StatePill tone="info" mark="spinner" status="connecting" label={t('servers.status.connecting')} />;
    case 'connected':
      return (
        <span className="status-group" data-status="connected">
          <StatePill tone="success" mark="dot" label={t('servers.status.connected')} />
          {server.era && <span className="pill pill-neutral">{t(`servers.era.${server.era}`)}</span>}
          {server.protocolVersion && (
            <span className="pill pill-neutral">{t('servers.protocol', { version: server.protocolVersion })}</span>
          )}
        </span>
      );
    case 'error':
      // Lacking a value is a setup step left, not an unreachable server.
      return server.needs?.length ? (
        <StatePill tone="warning" mark="dot" status="error" label={t('servers.status.needsValue')} />
      ) : (
        <StatePill tone="danger" mark="dot" status="error" label={t('servers.status.error')} />
      );
    default:
      return <StatePill tone="neutral" status="idle" label={t('servers.status.idle')} />;
  }
}

interface StatePillProps {
  tone: 'info' | 'success' | 'warning' | 'danger' | 'neutral';
  /** A spinner while something happens, a dot for a settled state. */
  mark?: 'spinner' | 'dot';
  /** Set where the pill alone carries the state (tests and styles read it). */
  status?: ServerView['status'];
  label: string;
}

function StatePill({ tone, mark, status, label }: StatePillProps) {
  return (
    <span className={`pill pill-${tone}`} data-status={status}>
      {mark && <span className={`pill-${mark}`} aria-hidden="true" />}
      {label}
    </span>
  );
}
