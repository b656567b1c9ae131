// The shape of the host API's handlers, one per contract method, and what
// every handler may use of the service. HostService builds the table once
// from the domain modules beside this one; the type makes a missing method a
// compile error.
import type {
  HistoryFilter,
  HostEvents,
  HostMethodName,
  HostParams,
  HostResults,
  ServerView,
  Settings,
  TaskView,
} from '../../../../shared/host-api/contract';
import type { ServerEntry } from '../../config/server-config';
import type { ServersFile } from '../../config/servers-file';
import type { ServerConnection } from '../../connection/server-connection';
import type { AppSessions } from '../../apps/app-sessions';
import type { Passkeys } from '../../passkeys/passkeys';
import type { Host } from '../../host';
import type { TaskRecord } from '../../tasks/task-store';
import type { Emitter } from '../emitter';
import type { HostServiceOptions } from '../service-options';
import type { QueuePrompter } from '../queue-prompter';

/** One method's handler: its checked params and the place (window, tab) the request came from. */
export type Handler<M extends HostMethodName> = (
  params: HostParams<M>,
  place: string | undefined,
) => Promise<HostResults[M]>;

/** Every method's handler (a domain's module returns its part, checked against this). */
export type HandlerTable = { [M in HostMethodName]: Handler<M> };

/** What the handlers share of the service: its parts, and the server state every domain shows. */
export interface HandlerContext {
  readonly options: HostServiceOptions;
  readonly host: Host;
  readonly prompter: QueuePrompter;
  readonly serversFile: ServersFile;
  readonly events: Emitter<HostEvents>;
  /** The settings as they are now. */
  settings(): Settings;
  /** Replace the settings (updateSettings, which applies and saves them). */
  setSettings(next: Settings): void;
  /** The export-link maker a front end set (HostService.exportLinks), if any. */
  exportLinks(): ((filter: HistoryFilter, format: 'jsonl' | 'csv') => string) | undefined;
  /** The latest approval-channel alert, if any. */
  lastAlert(): HostEvents['appAlert'] | undefined;
  /** The server views as they are now. */
  serverViews(): ServerView[];
  /** The server views, also told to every front end. */
  emitServers(): ServerView[];
  /** The server's entry, or a config error naming it. */
  requireServer(name: string): ServerEntry;
  /** Connect, showing the state in the server's view. */
  connect(name: string): Promise<ServerConnection>;
  /** Connect in the background: never asks the human. */
  connectQuietly(name: string): Promise<void>;
  /** Re-read a server's sign-in state for its view. */
  refreshSignIn(name: string): Promise<void>;
  /** The last sign-in failure per server, in the host's own words. */
  readonly signInErrors: Map<string, string>;
  /** A task's view (following it, its last answer). */
  taskView(record: TaskRecord): TaskView;
  /** The MCP Apps shown (apps.origin set where a front end can frame them). */
  readonly apps: AppSessions;
  /** The data folder's passkeys and their ceremony page. */
  readonly passkeys: Passkeys;
}
