// The one bridge from the pure stores to React.
import { useSyncExternalStore } from 'react';

/** Anything with a subscribe/getState pair. */
export interface ExternalStore<S> {
  subscribe(listener: () => void): () => void;
  getState(): S;
}

/** Re-renders when the store changes; returns its current state. */
export function useStore<S>(store: ExternalStore<S>): S {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
