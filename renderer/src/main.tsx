// The renderer's entry point: find the host, start the stores, draw.
// First: before any zod schema parses (the MCP Apps bridge carries the SDK's), see zod-jitless.ts.
import './views/tools/apps/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MissingTokenError, getHostApi } from './api/get-host-api';
import App from './app/App';
import HostUnavailable from './app/HostUnavailable';
import { createStores } from './app/stores';
import type { WsHostApi } from './api/ws-host-api';
import { followConnection } from './app/connection-store';
import { startWebAttention } from './app/web-attention';
import './styles/index.css';

const root = createRoot(document.getElementById('root')!);
try {
  const api = getHostApi();
  const stores = createStores(api);
  void stores.start();
  const connection = followConnection(api as Partial<WsHostApi>, () => void stores.resync());
  // The web shell finds the person itself; the desktop app does so in main.
  if ('connection' in api)
    startWebAttention(
      stores.queue,
      () => (document.documentElement.lang === 'de' ? 'de' : 'en'),
      () => stores.settings.getState().settings?.notificationDetail ?? 'names',
    );
  // Closing or reloading this window answers nothing: only the human's own
  // action on a question does. The question stays open for another window
  // or tab, or for this one when it comes back.
  root.render(
    <StrictMode>
      <App stores={stores} connection={connection} />
    </StrictMode>,
  );
} catch (err) {
  root.render(
    <HostUnavailable
      error={err instanceof Error ? err.message : String(err)}
      missingToken={err instanceof MissingTokenError}
    />,
  );
}
