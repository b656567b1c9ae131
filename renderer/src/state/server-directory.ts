// The names of the servers the host knows, used to give every server a
// distinct badge colour. Fed by listServers + serversChanged and by the
// servers questions come from. A host that cannot list servers still works:
// names then come from questions alone.
import type { HostApi } from '../../../shared/host-api/contract';

/** The part of the HostApi the directory uses. */
export type DirectoryHostApi = Pick<HostApi, 'listServers' | 'on'>;

/** State: every server name known so far (sorted, deduplicated). */
export interface DirectoryState {
  readonly names: readonly string[];
}

/** An event-emitting store of known server names. */
export class ServerDirectory {
  private state: DirectoryState = { names: [] };
  private readonly listeners = new Set<() => void>();
  private off: (() => void) | null = null;

  constructor(private readonly api: DirectoryHostApi) {}

  async start(): Promise<void> {
    this.off = this.api.on('serversChanged', (servers) => this.merge(servers.map((s) => s.name)));
    try {
      this.merge((await this.api.listServers({})).map((s) => s.name));
    } catch {
      // Colours then follow the servers seen in questions.
    }
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  getState = (): DirectoryState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Adds names (for example the servers of waiting questions). */
  merge(names: readonly string[]): void {
    const next = [...new Set([...this.state.names, ...names])].sort();
    if (next.length === this.state.names.length) return;
    this.state = { names: next };
    for (const l of [...this.listeners]) l();
  }
}
