// The shape every renderer store shares: immutable state, replaced on each
// change, with subscribers told afterwards (what useStore reads).

/** A minimal event-emitting store; subclasses add the actions. */
export class Store<S> {
  private readonly listeners = new Set<() => void>();

  constructor(protected state: S) {}

  /** The current state (the same object until something changes). */
  getState = (): S => this.state;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  protected set(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }
}

/** The message of anything thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
