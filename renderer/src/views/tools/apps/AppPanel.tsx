import { useEffect, useRef, useState } from 'react';
import type { AppView, HostApi } from '../../../../../shared/host-api/contract';
import { useT } from '../../../i18n/i18n-context';
import { errorText } from '../../../state/store';
import type { AppNotice, connectAppBridge } from './app-bridge-host';
import { hostContextFor, MAX_APP_HEIGHT } from './host-context';

/** Props: the completed call whose tool names an app, and the API the host gives. */
export interface AppPanelProps {
  api: Pick<HostApi, 'openApp' | 'callAppTool' | 'recordAppEvent' | 'openAppLink' | 'closeApp'>;
  server: string;
  tool: string;
  callId: string;
  args: Record<string, unknown>;
  result: unknown;
}

const MIN_APP_HEIGHT = 80;
/** Notices kept on screen; the history keeps them all (up to its own cap). */
const MAX_NOTICES = 20;

/**
 * A call's MCP App beside its result: the server's own UI in a sandboxed frame
 * on another origin (scripts only: no same-origin, popups, top navigation,
 * forms or modals), with a host-drawn frame that says whose it is and what
 * Countersign does with what the app sends. Everything the app sends is
 * text here, never markup.
 */
export default function AppPanel({ api, server, tool, callId, args, result }: AppPanelProps) {
  const t = useT();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [app, setApp] = useState<AppView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);
  const [height, setHeight] = useState(240);
  const [notices, setNotices] = useState<AppNotice[]>([]);

  useEffect(() => {
    let live = true;
    api.openApp({ server, tool, callId }).then(
      ({ app: opened }) => live && setApp(opened),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [api, server, tool, callId]);

  useEffect(() => {
    const frame = frameRef.current;
    if (!app || !frame || closed) return;
    let bridge: Awaited<ReturnType<typeof connectAppBridge>> | undefined;
    let gone = false;
    // The bridge (and the SDK code it carries) loads only when an app is shown. It listens before the document
    // loads, so the app's first message (ui/initialize) is heard.
    void import('./app-bridge-host')
      .then(({ allowAttribute, connectAppBridge: connect }) => {
        frame.allow = allowAttribute(app);
        return connect({
          app,
          frame,
          api,
          call: { args, result },
          hostContext: hostContextFor(app),
          onNotice: (n) => setNotices((list) => [n, ...list].slice(0, MAX_NOTICES)),
          onHeight: (h) => setHeight(Math.min(MAX_APP_HEIGHT, Math.max(MIN_APP_HEIGHT, Math.ceil(h)))),
          onClosed: () => setClosed(true),
        });
      })
      .then(
        (b) => {
          if (gone) return void b.close();
          bridge = b;
          frame.src = app.documentUrl;
        },
        (err: unknown) => setError(errorText(err)),
      );
    // Theme and language follow Settings: the document's attributes change, the app is told.
    const watch = new MutationObserver(() => bridge?.setHostContext(hostContextFor(app)));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'lang'] });
    return () => {
      gone = true;
      watch.disconnect();
      void bridge?.close();
    };
    // args and result are left out: a completed call's never change.
  }, [app, closed, api]);

  if (error) return <p className="banner banner-danger app-error">{t('apps.failed', { error })}</p>;
  if (!app) return null;
  return (
    <section className="app-panel" data-testid="app-panel" aria-label={t('apps.label', { server })}>
      <header className="app-panel-head">
        <span className="pill pill-info">{t('apps.badge')}</span>
        <span className="app-origin mono">
          {server} · {app.resourceUri}
        </span>
      </header>
      <p className="muted app-note">{t('apps.note')}</p>
      {closed ? (
        <p className="banner banner-warning" data-testid="app-closed">
          {t('apps.closed')}
        </p>
      ) : (
        <iframe
          ref={frameRef}
          className={`app-frame${app.prefersBorder ? ' app-frame-border' : ''}`}
          title={t('apps.frameTitle', { server, tool })}
          // Scripts only: an opaque origin, no popups, no top navigation, no forms, no modals.
          sandbox="allow-scripts"
          referrerPolicy="no-referrer"
          style={{ height: `${height}px` }}
          data-testid="app-frame"
        />
      )}
      {notices.length > 0 && (
        <ul className="app-notices" aria-live="polite" data-testid="app-notices">
          {notices.map((n, i) => (
            <li key={notices.length - i} data-notice={n.kind}>
              <span className="app-notice-kind">{t(`apps.notice.${n.kind}`)}</span>{' '}
              <span className="app-notice-text">{n.text}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
