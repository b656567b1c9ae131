// The host's connections: one per configured server, opened on first use,
// closed when its server changes or goes, and the sign-in each HTTP server
// gets. A legacy server's questions and task notifications are handed to the
// callbacks the host gives.
import type { ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/client';
import type { CredentialStore } from '../auth/credential-store';
import { ServerAuth, type SignInEvent } from '../auth/server-auth';
import { scanHeaderDeclarations } from '../calls/param-headers';
import type { ServerList, ServerListChange } from '../config/server-list';
import type { EraCache } from '../connection/era-cache';
import { openConnection, type ServerConnection } from '../connection/server-connection';
import { HostError } from '../host-error';
import type { OpenedLink } from '../links/launcher-file';
import type { SignInPrompter } from '../prompter/prompter';
import { emptySlot, toolHintsOf, type ServerSlot } from './server-slot';

/** Sign-in to HTTP servers that ask for it (MCP authorization). */
export interface HostAuthOptions {
  store: CredentialStore;
  /**
   * Open a sign-in link in the system browser (the caller's open-external gate
   * re-checks it); what it returns is closed when the sign-in ends.
   */
  open(url: string): Promise<OpenedLink | void>;
  /** False: never ask (`--no-sign-in`, the gateway's agent side): a needed sign-in ends with "sign-in needed". */
  allowSignIn?: boolean;
  /** The app's client ID metadata document URL setting. */
  clientMetadataUrl?: string;
  onEvent?(event: SignInEvent): void | Promise<void>;
  /** A request at the redirect listener that was not the sign-in's answer (a wrong state): one sentence. */
  onFault?(message: string): void | Promise<void>;
  callbackTimeoutMs?: number;
}

/** What the connections need from the host. */
export interface ConnectionsOptions {
  servers: ServerList;
  eraCache: EraCache;
  /** Sign-in questions go to the host's prompter. */
  prompter: SignInPrompter;
  auth?: HostAuthOptions;
  /** The front end renders MCP Apps (the ui extension is declared to every server). */
  rendersApps?: boolean;
  /** A legacy server's elicitation/create (a task's, or a call's). */
  onLegacyElicit(server: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  /** A legacy server's notifications/tasks/status. */
  onTaskStatus(server: string, params: Record<string, unknown>): void;
}

/** Every configured server's connection and slot. */
export class ServerConnections {
  /** Connections being closed because their server changed, so setServer/removeServer can wait for them. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly slots = new Map<string, ServerSlot>();
  private readonly auths = new Map<string, ServerAuth>();

  constructor(private readonly options: ConnectionsOptions) {}

  /** The list changed (from any writer, or the file on disk): a changed or removed server starts afresh. */
  forget(change: ServerListChange): void {
    for (const name of [...change.changed, ...change.removed]) {
      this.auths.delete(name);
      const done: Promise<void> = this.disconnect(name)
        .catch(() => undefined)
        .then(() => {
          if (this.closing.get(name) === done) this.closing.delete(name);
        });
      this.closing.set(name, done);
    }
  }

  /** The closing of the server's connection because its server changed, while it runs. */
  closingOf(name: string): Promise<void> | undefined {
    return this.closing.get(name);
  }

  /** The server's slot, made on first use. */
  slot(name: string): ServerSlot {
    let slot = this.slots.get(name);
    if (!slot) {
      slot = emptySlot();
      this.slots.set(name, slot);
    }
    return slot;
  }

  /** The sign-in of an HTTP server (undefined for stdio servers or without auth options). */
  serverAuth(name: string): ServerAuth | undefined {
    const entry = this.options.servers.get(name);
    const opts = this.options.auth;
    if (!entry || !opts || !('url' in entry) || entry.oauth?.grant === 'client_credentials') return undefined;
    let a = this.auths.get(name);
    if (!a) {
      const prompter = this.options.prompter;
      a = new ServerAuth({
        server: name,
        serverUrl: entry.url,
        settings: entry.oauth ?? {},
        store: opts.store,
        interaction: {
          ...(opts.allowSignIn !== false && prompter.signIn ? { ask: (q, signal) => prompter.signIn!(q, signal) } : {}),
          open: (url) => opts.open(url),
          ...(prompter.signInWaiting ? { waiting: (q, signal) => prompter.signInWaiting!(q, signal) } : {}),
        },
        ...(opts.clientMetadataUrl ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
        ...(opts.onEvent ? { onEvent: (e) => opts.onEvent!(e) } : {}),
        ...(opts.onFault ? { onFault: (m) => opts.onFault!(m) } : {}),
        ...(opts.callbackTimeoutMs ? { callbackTimeoutMs: opts.callbackTimeoutMs } : {}),
      });
      this.auths.set(name, a);
    }
    return a;
  }

  /** Connect (once) to a configured server. */
  connect(name: string, signal?: AbortSignal): Promise<ServerConnection> {
    const entry = this.options.servers.get(name);
    if (!entry) return Promise.reject(new HostError('config', `no server named "${name}" is configured`));
    const slot = this.slot(name);
    if (!slot.connection) {
      const serverAuth = this.serverAuth(name);
      const stopOpening = new AbortController();
      slot.stopOpening = stopOpening;
      const opening = openConnection(name, entry, {
        eraCache: this.options.eraCache,
        ...(serverAuth ? { serverAuth } : {}),
        ...(this.options.rendersApps ? { rendersApps: true } : {}),
        signal: signal ? AbortSignal.any([signal, stopOpening.signal]) : stopOpening.signal,
        legacyHooks: {
          onElicit: (params, sig) => this.options.onLegacyElicit(name, params, sig),
          onElicitationComplete: (id) => slot.completions.complete(id),
          onTaskStatus: (params) => this.options.onTaskStatus(name, params),
        },
      });
      slot.connection = opening;
      const opened = () => {
        if (slot.stopOpening === stopOpening) slot.stopOpening = undefined;
      };
      opening.then(
        (conn) => {
          opened();
          slot.open = { promise: opening, conn };
          conn.onClose((reason) => {
            // The server went away (or the host closed it, with a reason): its
            // open questions are withdrawn by the calls' abort, and the next
            // use reconnects.
            if (slot.connection === opening) slot.connection = undefined;
            if (slot.open?.conn === conn) slot.open = undefined;
            const why = `server "${name}" ${reason ?? 'closed the connection'}`;
            for (const live of slot.calls.values()) live.controller.abort(new HostError('connection', why));
          });
        },
        () => {
          opened();
          if (slot.connection === opening) slot.connection = undefined;
        },
      );
    }
    return slot.connection;
  }

  /** The server's connection if it is open right now (no waiting, no connecting). */
  connectedNow(name: string): ServerConnection | undefined {
    const slot = this.slots.get(name);
    const open = slot?.open;
    return open && slot.connection === open.promise && !open.conn.closed ? open.conn : undefined;
  }

  /** List a server's tools (all pages), remembering what each mirrors into headers. */
  async listTools(name: string, signal?: AbortSignal): Promise<Tool[]> {
    const conn = await this.connect(name, signal);
    const { tools } = await conn.client.listTools();
    const slot = this.slot(name);
    slot.toolHeaders.clear();
    slot.toolHints.clear();
    slot.toolTaskSupport = new Map();
    for (const tool of tools) {
      const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
      if (typeof support === 'string') slot.toolTaskSupport.set(tool.name, support);
      const hints = toolHintsOf(tool.annotations, tool._meta);
      if (hints) slot.toolHints.set(tool.name, hints);
      const scan = scanHeaderDeclarations(tool.inputSchema);
      if (scan.valid && scan.declarations.length > 0) slot.toolHeaders.set(tool.name, scan.declarations);
    }
    return tools;
  }

  /** Close one server's connection (if open). */
  async disconnect(name: string): Promise<void> {
    const slot = this.slots.get(name);
    const pending = slot?.connection;
    if (!slot || !pending) return;
    slot.connection = undefined;
    // Still opening: end the attempt (its server process included) instead of waiting for it.
    slot.stopOpening?.abort(new HostError('cancelled', `connecting to "${name}" was cancelled`));
    slot.stopOpening = undefined;
    const conn = await pending.catch(() => undefined);
    await conn?.close();
  }

  /** Close every connection. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.slots.keys()].map((name) => this.disconnect(name)));
  }
}
