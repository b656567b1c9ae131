// The configured servers with their connection state, fed by listServers and
// serversChanged. Actions go to the host and the store follows its answer;
// their errors are thrown to the caller (the form shows them by field).
import type { HostApi, HostResults, ServerEntry, ServerView } from '../../../shared/host-api/contract';
import { errorText, Store } from './store';

/** The part of the HostApi the store uses. */
export type ServerHostApi = Pick<
  HostApi,
  | 'listServers'
  | 'addServer'
  | 'updateServer'
  | 'removeServer'
  | 'importServers'
  | 'reconnectServer'
  | 'muteServer'
  | 'on'
> &
  Partial<Pick<HostApi, 'signIn' | 'signOut'>>;

export interface ServerState {
  readonly servers: readonly ServerView[];
  readonly loaded: boolean;
  /** Why the list could not be loaded, if it could not. */
  readonly loadError: string | null;
  /** Why a hand edit of servers.json was not loaded (file:line:col); the list is the last good one. */
  readonly fileProblem: string | null;
}

/** An event-emitting store of the configured servers. */
export class ServerStore extends Store<ServerState> {
  private off: (() => void) | null = null;

  constructor(private readonly api: ServerHostApi) {
    super({ servers: [], loaded: false, loadError: null, fileProblem: null });
  }

  /** Follows serversChanged, then loads the list (events that arrive meanwhile win). */
  async start(): Promise<void> {
    let changed = false;
    const offServers = this.api.on('serversChanged', (servers) => {
      changed = true;
      this.set({ servers, loaded: true, loadError: null });
    });
    const offProblem = this.api.on('serversFileProblem', ({ error }) => this.set({ fileProblem: error }));
    this.off = () => {
      offServers();
      offProblem();
    };
    try {
      const servers = await this.api.listServers({});
      if (!changed) this.set({ servers, loaded: true, loadError: null });
    } catch (err) {
      this.set({ loaded: true, loadError: errorText(err) });
    }
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  /** One server's view, if configured. */
  find(name: string): ServerView | undefined {
    return this.state.servers.find((s) => s.name === name);
  }

  async add(name: string, entry: ServerEntry): Promise<void> {
    this.set({ servers: await this.api.addServer({ name, entry }) });
  }

  async update(name: string, entry: ServerEntry): Promise<void> {
    this.set({ servers: await this.api.updateServer({ name, entry }) });
  }

  async remove(name: string): Promise<void> {
    this.set({ servers: await this.api.removeServer({ name }) });
  }

  /** What importing another agent's config file would add (a dry run: nothing is written, nothing starts). */
  planImport(json: string, fileName: string): Promise<HostResults['importServers']> {
    return this.api.importServers({ json, fileName, dryRun: true });
  }

  /**
   * Imports the servers the person agreed to, with the `${input:…}` values they typed. The values go to the host
   * in this one call and are not kept here; the list follows through serversChanged.
   */
  importFile(
    json: string,
    fileName: string,
    names: readonly string[],
    inputs: Readonly<Record<string, string>>,
  ): Promise<HostResults['importServers']> {
    return this.api.importServers({ json, fileName, names: [...names], inputs: { ...inputs } });
  }

  async reconnect(name: string): Promise<void> {
    const view = await this.api.reconnectServer({ name });
    this.set({ servers: this.state.servers.map((s) => (s.name === name ? view : s)) });
  }

  async mute(name: string, muted: boolean): Promise<void> {
    this.set({ servers: await this.api.muteServer({ server: name, muted }) });
  }

  /** Starts a sign-in (the dialog comes through the question queue); `scopes` asks for more. */
  async signIn(name: string, scopes?: string[]): Promise<void> {
    if (!this.api.signIn) throw new Error('this host cannot sign in');
    this.set({
      servers: await this.api.signIn({ server: name, ...(scopes && scopes.length > 0 ? { scopes } : {}) }),
    });
  }

  /** Signs out: revoked where the server offers it, deleted here. */
  async signOut(name: string): Promise<void> {
    if (!this.api.signOut) throw new Error('this host cannot sign out');
    this.set({ servers: (await this.api.signOut({ server: name })).servers });
  }
}
