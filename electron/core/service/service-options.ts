// What a HostService is made with, and what it needs of the history journal.
import type { HistoryFilter, HostResults } from '../../../shared/host-api/contract';
import type { CredentialStore } from '../auth/credential-store';
import type { SignInEvent } from '../auth/server-auth';
import type { ServerEntry } from '../config/server-config';
import type { HostObserver } from '../events';
import type { LinkOpening, OpenExternal } from './queue-prompter';

/** What the service needs from the history journal. */
export interface HistoryPort {
  observer: HostObserver;
  query(filter: HistoryFilter): Promise<HostResults['queryHistory']>;
  export(filter: HistoryFilter, format: 'jsonl' | 'csv'): Promise<HostResults['exportHistory']>;
  /** Stream the export in constant memory; resolves with the number of items written. */
  exportTo?(
    filter: HistoryFilter,
    format: 'jsonl' | 'csv',
    sink: (chunk: string) => void | Promise<void>,
  ): Promise<number>;
  setRedact(redact: boolean): void;
  /** Check the whole hash chain, read-only. */
  verify?(): Promise<HostResults['verifyHistory']>;
  /** Records a sign-in step (asked, opened, completed, cancelled, failed, signed out). Never a token or code. */
  recordSignIn?(event: SignInEvent): Promise<void>;
  /** Set by the service: called with the seq of every appended entry. */
  onAppended?: (seq: number) => void;
  close(): Promise<void>;
}

export interface HostServiceOptions {
  dataDir: string;
  openExternal: OpenExternal;
  /** Where consented links open (default the system browser; the web shell: the person's tab). */
  linkOpening?: LinkOpening;
  history?: HistoryPort;
  /** Servers written to a missing servers.json on first start (the demo server). */
  firstStartServers?: Record<string, ServerEntry>;
  /** Connect to every server at start (the app); tests may turn it off. */
  connectOnStart?: boolean;
  /** Pause before re-sending a state-only round. */
  pacingDelayMs?: number;
  /** The server's time per request, never counting a human deciding (default: the SDK's 60 s). */
  requestTimeoutMs?: number;
  /** Follow hand edits of servers.json while running (default true). */
  watchConfig?: boolean;
  /** Where sign-ins are kept (default: the data folder's credential store, shared with the CLI and the gateway). */
  credentialStore?: CredentialStore;
  /** How long a sign-in waits for the browser once it was opened (default 5 min). */
  signInTimeoutMs?: number;
  /** The front end frames MCP Apps: the ui extension is declared to servers (never for the CLI). */
  rendersApps?: boolean;
  /** The passkey ceremony page's port on localhost (default: a free one, chosen on first use). */
  ceremonyPort?: number;
}
