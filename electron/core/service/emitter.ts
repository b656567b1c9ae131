// A tiny typed event emitter: the service's events are the contract's
// HostEvents, and a listener's type follows from the event name.

/** Typed publish/subscribe over an event map. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** Subscribe; returns the unsubscribe function. */
  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Deliver to every listener; one failing listener does not stop the others. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch {
        // A broken view must not break the host.
      }
    }
  }
}
