// What `call` and `exercise` share: the flags that pick a server, and a Host
// on that one server with the CLI's prompter, the [ELICIT] log and the history.
import type { EraCache } from '../core/connection/era-cache';
import { combineObservers, type HostObserver } from '../core/events';
import { Host, type HostAuthOptions } from '../core/host';
import type { SignInEvent } from '../core/auth/server-auth';
import type { Prompter } from '../core/prompter/prompter';
import { FileTaskStore } from '../core/tasks/task-store';
import { join } from 'node:path';
import { Passkeys } from '../core/passkeys/passkeys';
import { loadSettings } from '../core/service/settings-store';
import { openCliHistory, type CliHistory } from './history-recording';
import { dataDir } from './paths';
import type { CliIo } from './io';
import type { ResolvedTarget } from './target';

/** parseArgs options naming the server (see resolveTarget). */
export const TARGET_OPTIONS = {
  stdio: { type: 'string' },
  url: { type: 'string' },
  server: { type: 'string' },
  config: { type: 'string' },
  name: { type: 'string' },
} as const;

/** parseArgs options every session command takes. */
export const SESSION_OPTIONS = {
  'max-rounds': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A Host on one server, with history; close() ends both. */
export interface CliSession {
  host: Host;
  close(): Promise<void>;
}

/** Open the history (always: see history-recording.ts) and a Host on the target. */
export async function openSession(options: {
  io: CliIo;
  target: ResolvedTarget;
  prompter: Prompter;
  maxRounds: number;
  observers: Array<HostObserver | undefined>;
  /**
   * Only `countersign test` turns this off (its scripted answers are not the
   * human's; see test-command.ts). `call` and `exercise` always record.
   */
  recordHistory?: boolean;
  /** Era verdicts to start from (`countersign test` pins an era this way). */
  eraCache?: EraCache;
  /** Sign-in to HTTP servers that need it (see sign-in.ts). */
  auth?: HostAuthOptions;
  signIn?: Prompter['signIn'];
  /** The server's time per request, never counting a question open (default: the SDK's 60 s). */
  requestTimeoutMs?: number;
}): Promise<CliSession> {
  const history: CliHistory =
    options.recordHistory === false ? { close: async () => undefined } : await openCliHistory(options.io);
  // Settings → Passkeys holds for scripts too: an accept that needs the person's passkey is refused (exit 2).
  const settings = await loadSettings(join(dataDir(options.io.env), 'settings.json'));
  const passkeys = new Passkeys({
    dataDir: dataDir(options.io.env),
    policy: () => settings.passkeys,
    entry: (name) => (name === options.target.name ? options.target.entry : undefined),
    ceremonies: false,
  });
  const host = new Host({
    passkeys: passkeys.guard,
    servers: { [options.target.name]: options.target.entry },
    prompter: options.signIn
      ? { ask: (q, signal) => options.prompter.ask(q, signal), signIn: options.signIn }
      : options.prompter,
    ...(options.auth ? { auth: withSignInRecording(options.auth, history) } : {}),
    observer: combineObservers(...options.observers, history.observer),
    maxRounds: options.maxRounds,
    ...(options.eraCache ? { eraCache: options.eraCache } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    // Task ids live in the data folder, so `countersign task …` and a later
    // run find the tasks this one started.
    taskStore: new FileTaskStore(dataDir(options.io.env)),
  });
  return {
    host,
    async close() {
      await host.close();
      await history.close();
    },
  };
}

/** `auth` whose sign-in steps also go to the history (the CLI's own sign-ins are recorded like the app's). */
export function withSignInRecording(auth: HostAuthOptions, history: CliHistory): HostAuthOptions {
  const record = history.recordSignIn;
  if (!record) return auth;
  return {
    ...auth,
    onEvent: async (e: SignInEvent) => {
      await auth.onEvent?.(e);
      await record(e);
    },
  };
}
