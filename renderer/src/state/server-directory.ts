// The names of the servers the host knows, used to give every server a
// distinct badge colour. Fed by listServers + serversChanged and by the
// servers questions come from. A host that cannot list servers still works:
// names then come from questions alone.
import type { HostApi } from '../../../shared/host-api/contract';
import { Store } from './store';

/** The part of the HostApi the directory uses. */
export type DirectoryHostApi = Pick<HostApi, 'listServers' | 'on'>;

/** State: every server name known so far (sorted, deduplicated). */
export interface DirectoryState {
  readonly names: readonly string[];
}

/** An event-emitting store of known server names. */
export class ServerDirectory extends Store<DirectoryState> {
  private off: (() => void) | null = null;

  constructor(private readonly api: DirectoryHostApi) {
    super({ names: [] });
  }

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

  /** Adds names (for example the servers of waiting questions). */
  merge(names: readonly string[]): void {
    const next = [...new Set([...this.state.names, ...names])].sort();
    if (next.length === this.state.names.length) return;
    this.set({ names: next });
  }
}
