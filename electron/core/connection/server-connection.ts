// Opens one server: builds the transport, detects the era (2026-07-28 via
// `server/discover`, else the legacy `initialize`), caches the verdict, and
// wires the legacy server-to-client elicitation handlers before connecting
// (the SDK only accepts handlers before `connect`).
import { runnableEntry } from '../config/variables';
import * as z from 'zod';
import { Client, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import { APP_HOST_CAPABILITIES, CLIENT_CAPABILITIES, CLIENT_INFO } from '../client-identity';
import type { ServerEntry } from '../config/server-config';
import { guardIncoming } from './wire-checks';
import { HostError, isHostError, messageOf } from '../host-error';
import { eraCacheKey, isFresh, type EraCache } from './era-cache';
import { createTransport, type BuiltTransport } from './transport-factory';
import {
  describeServerFailure,
  httpReason,
  processEnded,
  stderrTail,
  stdioReason,
  targetOf,
  type ServerFailure,
} from './server-failure';
import type { ServerAuth } from '../auth/server-auth';
import { prepareTaskWire, type TaskWire } from './task-wire';

/** How the host answers what a LEGACY server pushes during a call. */
export interface LegacyInputHooks {
  /** A legacy `elicitation/create` request arrived; resolve with the answer to send. */
  onElicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  /** A legacy `notifications/elicitation/complete` arrived. */
  onElicitationComplete(elicitationId: string): void;
  /** A task status push arrived (the full task): legacy notifications/tasks/status, modern notifications/tasks. */
  onTaskStatus?(params: Record<string, unknown>): void;
}

export interface ConnectOptions {
  eraCache?: EraCache;
  legacyHooks?: LegacyInputHooks;
  /** Per-request timeout for the probe and handshake. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sign-in for an HTTP server (absent: a 401 ends the connection attempt). */
  serverAuth?: ServerAuth;
  /** The front end renders MCP Apps: declare the ui extension. */
  rendersApps?: boolean;
}

/** A live connection to one configured server. */
export interface ServerConnection {
  readonly name: string;
  readonly entry: ServerEntry;
  readonly client: Client;
  readonly era: 'modern' | 'legacy';
  readonly protocolVersion: string;
  /** The server's self-reported name/version, when it gave one. */
  readonly serverInfo?: { name: string; version: string };
  /** Task handles captured at the transport (modern resultType "task"). */
  readonly taskWire: TaskWire;
  /** True from the moment the transport closed. */
  readonly closed: boolean;
  /**
   * Register a listener for the connection closing (server exit, network).
   * `reason` is set when the host itself closed it, e.g. an over-long message.
   */
  onClose(listener: (reason?: string) => void): void;
  close(): Promise<void>;
}

function newClient(hooks: LegacyInputHooks | undefined, rendersApps: boolean): Client {
  const client = new Client(CLIENT_INFO, {
    capabilities: rendersApps ? APP_HOST_CAPABILITIES : CLIENT_CAPABILITIES,
    versionNegotiation: { mode: 'auto' },
    // The host drives every input round itself (it logs, validates and can
    // cancel each one); the SDK's auto-fulfil would hide which call asked.
    inputRequired: { autoFulfill: false },
  });
  if (hooks) {
    client.setRequestHandler('elicitation/create', (request, ctx) => hooks.onElicit(request.params, ctx.mcpReq.signal));
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      hooks.onElicitationComplete(n.params.elicitationId);
    });
    if (hooks.onTaskStatus) {
      const onTaskStatus = hooks.onTaskStatus;
      // A 2025 notification the SDK keeps no handler type for: our own schema,
      // and parseTask reads the body.
      client.setNotificationHandler('notifications/tasks/status', { params: z.looseObject({}) }, (params) => {
        onTaskStatus(params);
      });
    }
  }
  return client;
}

/** Connect to a server, reusing a cached era verdict when one is fresh. */
export async function openConnection(
  name: string,
  entry: ServerEntry,
  options: ConnectOptions = {},
): Promise<ServerConnection> {
  // Placeholders (${env:…}, envFile) are resolved now, each start, and never written back.
  const runnable = await runnableEntry(name, entry, { env: process.env });
  const key = eraCacheKey(entry);
  const cached = options.eraCache?.get(key);
  const prior =
    cached && isFresh(cached)
      ? cached.era === 'modern'
        ? { kind: 'modern' as const, discover: cached.discover }
        : { kind: 'legacy' as const }
      : undefined;

  const attempt = async (priorVerdict: typeof prior) => {
    if (options.signal?.aborted) throw new HostError('cancelled', `connecting to "${name}" was cancelled`);
    const client = newClient(options.legacyHooks, options.rendersApps === true);
    const built = createTransport(runnable, options.serverAuth, name);
    const wire = prepareTaskWire(built.transport);
    // The SDK's server/discover probe takes no signal: closing the transport
    // (which ends a stdio server's process) is what ends an attempt on abort.
    const stop = () => void built.transport.close().catch(() => undefined);
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      await client.connect(built.transport, {
        ...(priorVerdict ? { prior: priorVerdict } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const modern = client.getProtocolEra() === 'modern';
      // Modern status pushes (notifications/tasks) go where legacy notifications/tasks/status go.
      wire.attach(modern, options.legacyHooks?.onTaskStatus);
      guardIncoming(built.transport, name);
      return { client, built, wire };
    } catch (error) {
      await client.close().catch(() => undefined);
      // A refused, declined or impossible sign-in is the answer itself, not a
      // connection failure to retry or re-word.
      if (isHostError(error, 'auth') || isHostError(error, 'sign-in-needed')) throw error;
      throw Object.assign(new Error(messageOf(error)), { attempt: { error, built } });
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  };

  let opened: Awaited<ReturnType<typeof attempt>>;
  try {
    opened = await attempt(prior);
  } catch (first) {
    if (options.signal?.aborted) throw new HostError('cancelled', `connecting to "${name}" was cancelled`);
    if (isHostError(first, 'auth') || isHostError(first, 'sign-in-needed')) throw first;
    if (prior) {
      // A stale verdict: forget it and detect afresh.
      options.eraCache?.delete(key);
      opened = await attempt(undefined).catch((e) => failConnect(name, entry, runnable, e));
    } else if ('command' in entry) {
      // Some legacy stdio servers exit on any request before `initialize`,
      // so the in-place probe kills them. Only then is the server started a
      // second time, straight into the legacy handshake; the verdict is
      // cached so it happens once.
      opened = await attempt({ kind: 'legacy' }).catch(() => failConnect(name, entry, runnable, first));
    } else {
      failConnect(name, entry, runnable, first);
    }
  }

  const { client, wire, built } = opened;
  const era = client.getProtocolEra() ?? 'legacy';
  const discover = client.getDiscoverResult();
  if (options.eraCache) {
    options.eraCache.set(
      key,
      era === 'modern' && discover ? { era, discover, at: Date.now() } : { era: 'legacy', at: Date.now() },
    );
  }

  let closed = false;
  let hostReason: string | undefined;
  const closeListeners: Array<(reason?: string) => void> = [];
  // The SDK's stdio transport closes the connection itself when one message
  // outgrows its read buffer, and only tells onerror why. Keep that reason,
  // so the call says what really happened instead of "the server closed".
  const previousOnError = client.onerror;
  client.onerror = (error) => {
    previousOnError?.(error);
    hostReason ??= hostCloseReason(error);
  };
  // A server process that ended on its own says how, with its last stderr lines.
  let closing = false;
  const previousOnClose = client.onclose;
  client.onclose = () => {
    previousOnClose?.();
    if (closed) return;
    closed = true;
    const exit = closing ? undefined : built.exit();
    // The values the process really got (variables resolved, envFile read) are the ones its stderr could echo.
    const stdioEnv = 'url' in runnable ? undefined : runnable.env;
    const reason = hostReason ?? (exit ? processEnded(exit, stderrTail(built.stderrTail(), stdioEnv)) : undefined);
    for (const l of closeListeners) l(reason);
  };
  const info = client.getServerVersion();
  return {
    name,
    entry,
    client,
    era,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
    ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
    taskWire: wire,
    get closed() {
      return closed;
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
    async close() {
      closing = true;
      await client.close().catch(() => undefined);
    },
  };
}

/** The one error for a server that could not be started or reached (see server-failure.ts). */
function failConnect(name: string, entry: ServerEntry, runnable: ServerEntry, wrapped: unknown): never {
  const { error, built } = (wrapped as { attempt?: { error: unknown; built: BuiltTransport } }).attempt ?? {
    error: wrapped,
    built: undefined,
  };
  const exit = built?.exit();
  const failure: ServerFailure = {
    reason: 'url' in entry ? httpReason(error, targetOf(entry).text) : stdioReason(error, entry.command, exit),
    target: targetOf(entry),
    // Hidden in its stderr: the values the process really got (resolved, envFile included), not the placeholders.
    stderr: stderrTail(built?.stderrTail() ?? [], 'url' in runnable ? undefined : runnable.env),
  };
  throw new HostError('connection', describeServerFailure(name, failure), {
    server: name,
    reason: failure.reason,
    stderr: failure.stderr,
    ...(exit ? { exit } : {}),
  });
}

const READ_BUFFER_EXCEEDED = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/** Why the host (not the server) closed a connection, in one sentence; undefined for anything else. */
export function hostCloseReason(error: unknown): string | undefined {
  const m = error instanceof Error ? READ_BUFFER_EXCEEDED.exec(error.message) : null;
  if (!m) return undefined;
  const bytes = Number(m[1]);
  const mib = Math.round((bytes / 1_048_576) * 10) / 10;
  return (
    `sent a message larger than the host's limit of ${bytes} bytes (${mib} MiB), ` + 'so the host closed the connection'
  );
}
