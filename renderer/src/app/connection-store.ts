// The web shell's connection state as a store the banner reads.
import type { WsHostApi } from '../api/ws-host-api';
import type { ExternalStore } from '../state/use-store';
import type { ConnectionView } from './ConnectionBanner';

/**
 * The web shell's connection as a store for the banner; after a reconnect the
 * stores re-read everything, because events sent meanwhile were lost.
 */
export function followConnection(
  api: Partial<Pick<WsHostApi, 'connection' | 'onConnection'>>,
  onReconnected: () => void,
): ExternalStore<ConnectionView> {
  let state: ConnectionView = api.connection;
  const listeners = new Set<() => void>();
  let wasLost = false;
  api.onConnection?.((next) => {
    if (next === 'reconnecting' || next === 'failed') wasLost = true;
    if (next === 'open' && wasLost) {
      wasLost = false;
      onReconnected();
    }
    state = next;
    for (const l of [...listeners]) l();
  });
  return {
    getState: () => state,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
