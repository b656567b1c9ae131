// Builds the SDK transport for a configured server.
import type { ChildProcess } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import {
  ClientCredentialsProvider,
  InsufficientScopeError,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  withDpop,
  type FetchLike,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isStdioEntry, type HttpServerEntry, type ServerEntry } from '../config/server-config';
import type { ServerAuth } from '../auth/server-auth';
import { HostError } from '../host-error';
import type { ProcessExit } from './server-failure';

/**
 * The SDK's 'auto' negotiation spawns a throw-away sibling process to probe
 * when the transport is exactly `StdioClientTransport`, and probes in place
 * on any subclass. Probing in place spawns each stdio server once, which is
 * what a host that starts user programs must do (a server may have side
 * effects at start-up, and it halves connect time).
 */
export class InPlaceStdioTransport extends StdioClientTransport {
  private ended?: ProcessExit;

  /** How the server's process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.ended;
  }

  override start(): Promise<void> {
    // The SDK keeps its child process to itself; Node's public spawn channel
    // hands it to a subscriber in the same synchronous turn as the spawn, so
    // the one process seen while super.start() runs is this transport's.
    let child: ChildProcess | undefined;
    const seen = (message: unknown) => {
      child ??= (message as { process?: ChildProcess }).process;
    };
    spawnChannel.subscribe(seen);
    let started: Promise<void>;
    try {
      started = super.start();
    } finally {
      spawnChannel.unsubscribe(seen);
    }
    child?.once('exit', (code, signal) => (this.ended = { code, signal }));
    return started;
  }
}

const spawnChannel = diagnosticsChannel.channel('child_process');

/** Lines of a stdio server's stderr kept to explain a failed start (shown: see stderrTail). */
const STDERR_TAIL_LINES = 40;

/** A transport plus what the host wants to know about it. */
export interface BuiltTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string[];
  /** How the server's process ended, once it has (stdio only). */
  exit(): ProcessExit | undefined;
}

/**
 * Streamable HTTP with sign-in. The SDK transport calls the host's
 * AuthProvider on 401 (the sign-in); a 403 insufficient_scope comes out as
 * InsufficientScopeError, and this class steps up (a sign-in asking for the
 * union of scopes) and re-sends, at most `maxStepUps` times per request,
 * then ends with a clear error instead of looping.
 */
class SignInTransport extends StreamableHTTPClientTransport {
  constructor(
    private readonly serverName: string,
    url: URL,
    private readonly serverAuth: ServerAuth,
    headers: Record<string, string> | undefined,
  ) {
    const serverHref = url.href;
    // A DPoP-bound token (RFC 9449) goes out as `Authorization: DPoP …` with a
    // fresh proof per request (htm, htu, ath, the server's nonce); the SDK's
    // withDpop also retries once on a 401 use_dpop_nonce. A Bearer token
    // passes through it untouched.
    const base: FetchLike = withDpop(
      () => serverAuth.provider.resourceDpop(),
      () => serverAuth.provider.dpopAccessToken(),
    )((input, init) => fetch(input, init));
    super(url, {
      authProvider: serverAuth.authProvider(),
      ...(headers ? { requestInit: { headers } } : {}),
      // On a server that asked for a sign-in, the standalone GET stream waits
      // for it: a 401 on a background stream would otherwise start a sign-in
      // that no call asked for.
      fetch: async (input, init) => {
        const href = typeof input === 'string' ? input : input.href;
        if (
          (init?.method ?? 'GET') === 'GET' &&
          href === serverHref &&
          serverAuth.challenged &&
          !(await serverAuth.provider.tokens())
        )
          return new Response(null, { status: 405 });
        return base(input, init);
      },
    });
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    for (let stepUps = 0; ; stepUps++) {
      try {
        return await super.send(message, options);
      } catch (e) {
        if (!(e instanceof InsufficientScopeError)) throw e;
        if (stepUps >= this.serverAuth.maxStepUps)
          throw new HostError(
            'auth',
            `server "${this.serverName}" still refuses with "insufficient scope" after ${stepUps} step-up ` +
              `sign-in${stepUps === 1 ? '' : 's'}${e.requiredScope ? ` (it asks for: ${e.requiredScope})` : ''}; ` +
              'stopped',
            { reason: 'step-up-limit' },
          );
        await this.serverAuth.stepUp(e.requiredScope, e.resourceMetadataUrl);
      }
    }
  }
}

/** Machine-to-machine sign-in (client_credentials): the SDK's providers, no human, no browser. */
function clientCredentialsProvider(entry: HttpServerEntry) {
  const o = entry.oauth!;
  const scope = o.scopes?.join(' ');
  if (o.privateKey)
    return new PrivateKeyJwtProvider({
      clientId: o.clientId!,
      privateKey: o.privateKey,
      algorithm: o.signingAlgorithm ?? 'ES256',
      ...(scope ? { scope } : {}),
    });
  return new ClientCredentialsProvider({
    clientId: o.clientId!,
    clientSecret: o.clientSecret!,
    ...(scope ? { scope } : {}),
  });
}

/** An HTTP server has no process of ours: no stderr, no exit. */
const NO_PROCESS = { stderrTail: () => [], exit: () => undefined };

/** Create the transport for an entry. Server stderr is kept, not printed. */
export function createTransport(entry: ServerEntry, serverAuth?: ServerAuth, name = 'server'): BuiltTransport {
  if (isStdioEntry(entry)) {
    const tail: string[] = [];
    const transport = new InPlaceStdioTransport({
      command: entry.command,
      args: entry.args ?? [],
      // The SDK's default environment is a safe subset (PATH, HOME, ...);
      // configured variables are added on top, as other hosts do.
      env: { ...getDefaultEnvironment(), ...(entry.env ?? {}) },
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) tail.push(line);
      tail.splice(0, Math.max(0, tail.length - STDERR_TAIL_LINES));
    });
    return {
      transport,
      stderrTail: () => (partial.trim() ? [...tail, partial] : [...tail]),
      exit: () => transport.exit,
    };
  }
  if (entry.oauth?.grant === 'client_credentials') {
    const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
      authProvider: clientCredentialsProvider(entry),
      ...(entry.headers ? { requestInit: { headers: entry.headers } } : {}),
    });
    return { transport, ...NO_PROCESS };
  }
  if (serverAuth) {
    return { transport: new SignInTransport(name, new URL(entry.url), serverAuth, entry.headers), ...NO_PROCESS };
  }
  const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
    ...(entry.headers ? { requestInit: { headers: entry.headers } } : {}),
  });
  return { transport, ...NO_PROCESS };
}
