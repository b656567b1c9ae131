// The one list of configured servers in a process. The Host connects from it,
// the app's HostService shows it and the gateway exposes it; the servers file
// (servers-file.ts) feeds it from disk, on start and whenever the file changes.
// Keeping one list means an edit seen by one of them is seen by all: before,
// Host, HostService and Gateway each kept a copy and updated them one by one.
import type { ServerEntry } from './server-config';

/** What one update changed, by server name. */
export interface ServerListChange {
  added: string[];
  changed: string[];
  removed: string[];
}

/** A listener of list changes; called synchronously after the list has changed. */
export type ServerListListener = (change: ServerListChange) => void;

/** True when a change changed nothing. */
export function isEmptyChange(change: ServerListChange): boolean {
  return change.added.length + change.changed.length + change.removed.length === 0;
}

/** The servers, by name, with change notifications. */
export class ServerList {
  private entries: Readonly<Record<string, ServerEntry>>;
  private readonly listeners = new Set<ServerListListener>();

  constructor(initial: Record<string, ServerEntry> = {}) {
    this.entries = { ...initial };
  }

  /** One server's entry. */
  get(name: string): ServerEntry | undefined {
    return Object.prototype.hasOwnProperty.call(this.entries, name) ? this.entries[name] : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Names, in the file's order. */
  names(): string[] {
    return Object.keys(this.entries);
  }

  /** The whole list (a snapshot: later changes make a new object). */
  snapshot(): Readonly<Record<string, ServerEntry>> {
    return this.entries;
  }

  /** Replace the whole list; listeners hear which servers were added, changed or removed. */
  replace(next: Record<string, ServerEntry>): ServerListChange {
    const change: ServerListChange = { added: [], changed: [], removed: [] };
    for (const name of Object.keys(this.entries)) if (!(name in next)) change.removed.push(name);
    for (const [name, entry] of Object.entries(next)) {
      const before = this.get(name);
      if (!before) change.added.push(name);
      else if (JSON.stringify(before) !== JSON.stringify(entry)) change.changed.push(name);
    }
    this.entries = { ...next };
    if (!isEmptyChange(change)) for (const l of [...this.listeners]) l(change);
    return change;
  }

  /** Add or replace one server. */
  set(name: string, entry: ServerEntry): ServerListChange {
    return this.replace({ ...this.entries, [name]: entry });
  }

  /** Remove one server. */
  remove(name: string): ServerListChange {
    const { [name]: _gone, ...rest } = this.entries;
    return this.replace(rest);
  }

  /** Listen for changes; returns the unsubscribe function. */
  onChange(listener: ServerListListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
