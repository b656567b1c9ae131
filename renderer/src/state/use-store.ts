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

/**
 * Re-renders only when `select`'s result changes (compared with Object.is: return a primitive or a kept object).
 * A component that needs one figure of a busy store stays out of the store's other changes.
 */
export function useStoreSelector<S, T>(store: ExternalStore<S>, select: (state: S) => T): T {
  const read = () => select(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}
