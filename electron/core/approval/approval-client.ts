// The gateway side of the approval channel: one connection to the running
// app, opened when the first question arrives (the app is started if it is
// not running), multiplexing every open question by id. A question whose
// call is cancelled is cancelled in the app too, so its dialog closes.
import { connect, type Socket } from 'node:net';
import { HostError, isHostError, messageOf } from '../host-error';
import { capLine } from '../limits';
import type { PrompterAnswer } from '../prompter/prompter';
import { parseReceipt, type Receipt } from '../passkeys/receipt';
import { approvalEndpoint, readTokenFile, sharedEndpoint, type ApprovalEndpoint } from './endpoint';
import { ApproverAppNotRunning, checkApproverFolder, readShare, type Approver } from './shared-folder';
import {
  APPROVAL_PROTOCOL,
  LineReader,
  appFrameSchema,
  encodeFrame,
  parseFrame,
  type AppFrame,
  type GatewayFrame,
  type WireSignIn,
  NOT_VISIBLE,
} from './protocol';
import { checkProof, handshakeProof, newNonce } from './handshake';
import { stderrLog } from '../terminal-output';

/** The sentence an agent gets when the app runs but nobody can see it (defined beside the app side). */
export { NOT_VISIBLE };

/** The one sentence an agent gets when no human can be asked. */
export const APP_NOT_RUNNING = 'approval app not running, nothing was done';

/** No app could be reached (or started) to ask the human. */
export class ApprovalUnavailableError extends HostError {
  constructor(detail: string) {
    super('connection', `${APP_NOT_RUNNING}: ${detail}`, { reason: 'approval-app-unavailable' });
  }
}

/** The app withdrew a question before the human answered (it is closing, or refused the question). */
export class ApprovalWithdrawnError extends HostError {
  constructor(readonly appReason: string) {
    super(
      'connection',
      'the question was withdrawn in the Countersign app before the user answered; nothing was sent to the server',
      {
        reason: 'approval-withdrawn',
      },
    );
  }
}

/** The app runs, but no window or tab could show the question: refused at once, nothing asked. */
export class ApprovalNotVisibleError extends HostError {
  constructor(readonly appReason: string) {
    super('connection', appReason.startsWith(NOT_VISIBLE) ? appReason : `${NOT_VISIBLE}: ${appReason}`, {
      reason: 'approval-app-not-visible',
    });
  }
}

/** True for the errors above: the approval channel, not the server, ended the call. */
export function isApprovalError(
  e: unknown,
): e is ApprovalUnavailableError | ApprovalWithdrawnError | ApprovalNotVisibleError {
  return (
    e instanceof ApprovalUnavailableError || e instanceof ApprovalWithdrawnError || e instanceof ApprovalNotVisibleError
  );
}

/**
 * Something that can start the app for a data folder. The gateway supplies
 * it (electron/gateway/app-launcher.ts); the channel only calls it.
 */
export interface AppLauncher {
  /** For logs and error messages. */
  readonly description: string;
  /** Start it, detached; `exited` settles if the started process ends (with its code). */
  start(dataDir: string): Promise<{ exited: Promise<number | null> }>;
}

/** Nothing listens at the endpoint (no app, or a stale socket). */
class NotRunning extends Error {}

export interface ApprovalClientOptions {
  dataDir: string;
  /** Starts the app when it is not running; null: never start it. */
  launcher: AppLauncher | null;
  /** How long to wait for a started app to answer. Default 30 s. */
  startTimeoutMs?: number;
  /** How long the hello/welcome handshake may take. Default 5 s. */
  handshakeTimeoutMs?: number;
  log?: (line: string) => void;
  /** The folder another user's app shares its socket in (./shared-folder.ts), instead of the data folder's. */
  approvalDir?: string;
  /** Connect only to a socket this user's app bound: checked before every connection. */
  approver?: Approver;
}

export type AskFrame = Omit<Extract<GatewayFrame, { type: 'ask' }>, 'type' | 'id'>;

interface Waiting {
  resolve(answer: PrompterAnswer): void;
  reject(error: Error): void;
}

/** One open, greeted connection to the app. */
class Connection {
  readonly waiting = new Map<string, Waiting>();
  closed = false;
  private readonly closeListeners: Array<() => void> = [];
  /**
   * What the app takes an end for on this connection, once each (it drops a
   * connection that sends any other): the calls its questions named, and the
   * sign-ins asked on it.
   */
  private readonly ends = { calls: new Set<string>(), signIns: new Set<string>() };

  constructor(readonly socket: Socket) {}

  /** Whether call `callId` asked a question on this connection and has not ended. */
  awaitsEnd(callId: string): boolean {
    return this.ends.calls.has(callId);
  }

  /** Send `frame`; false for an end the app would not take here (nothing is sent). */
  send(frame: GatewayFrame): boolean {
    if (this.closed) return false;
    if (frame.type === 'ask' && frame.call) this.ends.calls.add(frame.call.callId);
    else if (frame.type === 'sign-in') this.ends.signIns.add(frame.id);
    else if (frame.type === 'call-ended' && !this.ends.calls.delete(frame.callId)) return false;
    else if (frame.type === 'sign-in-end' && !this.ends.signIns.delete(frame.id)) return false;
    this.socket.write(encodeFrame(frame));
    return true;
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  close(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
    this.socket.destroy();
    for (const l of this.closeListeners) l();
  }
}

/** After a failed start, asks fail at once for this long instead of starting the app again. */
const LAUNCH_COOLDOWN_MS = 15_000;

export class ApprovalClient {
  private readonly endpoint: ApprovalEndpoint;
  private readonly log: (line: string) => void;
  private conn: Connection | undefined;
  private connecting: Promise<Connection> | undefined;
  private launching: Promise<Connection> | undefined;
  private launchFailedAt = 0;
  private launchFailure = '';
  private nextId = 0;
  private closed = false;
  /** A shared folder's key is 0640 by design (docs/security.md §4): read as it is, never tightened. */
  private readonly tokenPlace: 'private' | 'shared';

  constructor(private readonly options: ApprovalClientOptions) {
    const share =
      options.approvalDir === undefined && process.platform !== 'win32' ? readShare(options.dataDir) : undefined;
    const dir = options.approvalDir ?? share?.folder;
    this.endpoint = dir !== undefined ? sharedEndpoint(dir) : approvalEndpoint(options.dataDir);
    this.tokenPlace = dir !== undefined ? 'shared' : 'private';
    this.log = options.log ?? stderrLog;
  }

  /** Ask the human; resolves with the recorded answer, rejects on abort or when no app can be reached. */
  ask(ask: AskFrame, signal: AbortSignal): Promise<PrompterAnswer> {
    return this.request(signal, (id) => ({ type: 'ask', id, ...ask })).then(({ answer }) => answer);
  }

  /** A sign-in a server needs, put to the human in the app (./remote-sign-in.ts). */
  async askSignIn(signIn: WireSignIn, signal: AbortSignal): Promise<{ id: string; accepted: boolean }> {
    const { id, answer } = await this.request(signal, (id) => ({ type: 'sign-in', id, signIn }));
    return { id, accepted: answer.answer.action === 'accept' };
  }

  /** Send the frame `build` makes under a fresh id and wait for its answer; an abort sends `cancel` for it. */
  private async request(
    signal: AbortSignal,
    build: (id: string) => GatewayFrame,
  ): Promise<{ id: string; answer: PrompterAnswer }> {
    if (signal.aborted) throw abortError(signal);
    const conn = await this.ensure(true);
    if (signal.aborted) throw abortError(signal);
    const id = `q${++this.nextId}`;
    const answer = await new Promise<PrompterAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (!conn.waiting.delete(id)) return;
        conn.send({ type: 'cancel', id });
        reject(abortError(signal));
      };
      conn.waiting.set(id, {
        resolve: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
        reject: (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      conn.send(build(id));
    });
    return { id, answer };
  }

  /** The gateway's listener is ready: the app may open the consented sign-in's link. */
  openSignIn(id: string): void {
    this.conn?.send({ type: 'sign-in-open', id });
  }

  endSignIn(id: string, outcome: 'completed' | 'failed' | 'cancelled', error?: string): void {
    this.conn?.send({ type: 'sign-in-end', id, outcome, ...(error ? { error: capLine(error) } : {}) });
  }

  /** Resolves when the human cancels the sign-in's wait in the app; `signal` ends the wait (the app is told). */
  signInWithdrawn(id: string, signal: AbortSignal): Promise<void> {
    const conn = this.conn;
    if (!conn || conn.closed) return Promise.reject(new ApprovalUnavailableError('the Countersign app went away'));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        if (!conn.waiting.delete(id)) return;
        conn.send({ type: 'cancel', id });
        reject(abortError(signal));
      };
      conn.waiting.set(id, {
        resolve: () => undefined,
        reject: (e) => {
          signal.removeEventListener('abort', onAbort);
          if (e instanceof ApprovalWithdrawnError) resolve();
          else reject(e);
        },
      });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Tell the app how a call ended, for its history: only over the connection
   * that carried the call's questions, once (the app takes nothing else). A
   * call that asked nothing there, or whose connection is gone, is not told:
   * the app never saw it begin.
   */
  callEnded(frame: Omit<Extract<GatewayFrame, { type: 'call-ended' }>, 'type'>): void {
    this.conn?.send({ type: 'call-ended', ...frame });
  }

  /** Whether the app would take an end for `callId` now (a cheap check before building one). */
  awaitsEnd(callId: string): boolean {
    return this.conn?.awaitsEnd(callId) ?? false;
  }

  /** Close the connection; open questions are rejected as cancelled. */
  close(): void {
    this.closed = true;
    this.conn?.close(new HostError('cancelled', 'the gateway is shutting down'));
  }

  private async ensure(launch: boolean): Promise<Connection> {
    if (this.closed) throw new HostError('cancelled', 'the gateway is shutting down');
    if (this.conn && !this.conn.closed) return this.conn;
    try {
      this.connecting ??= this.open().finally(() => (this.connecting = undefined));
      return await this.connecting;
    } catch (e) {
      if (!(e instanceof NotRunning)) throw e;
      if (!launch) throw new ApprovalUnavailableError('the app is not running');
    }
    this.launching ??= this.launchAndConnect().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launchAndConnect(): Promise<Connection> {
    const launcher = this.options.launcher;
    if (!launcher)
      throw new ApprovalUnavailableError(
        'the Countersign app is not running, and this gateway does not start it. Start Countersign, then try again.',
      );
    if (Date.now() - this.launchFailedAt < LAUNCH_COOLDOWN_MS) throw new ApprovalUnavailableError(this.launchFailure);
    const fail = (detail: string): never => {
      this.launchFailedAt = Date.now();
      this.launchFailure = detail;
      this.log(`countersign gateway: ${detail}`);
      throw new ApprovalUnavailableError(detail);
    };
    this.log(`countersign gateway: the Countersign app is not running; starting it (${launcher.description})`);
    let started: Awaited<ReturnType<AppLauncher['start']>>;
    try {
      started = await launcher.start(this.options.dataDir);
    } catch (e) {
      return fail(`Countersign could not start its app (${launcher.description}): ${messageOf(e)}`);
    }
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 30_000);
    let exited: number | null | undefined;
    void started.exited.then((code) => (exited = code));
    for (;;) {
      try {
        return await this.open();
      } catch (e) {
        if (!(e instanceof NotRunning)) throw e;
      }
      if (exited !== undefined && exited !== 0)
        return fail(`Countersign could not start its app (${launcher.description} exited with code ${exited})`);
      if (Date.now() > deadline)
        return fail(
          `the Countersign app did not start within ${Math.round((this.options.startTimeoutMs ?? 30_000) / 1000)} s ` +
            `(${launcher.description})`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * One attempt: connect, run the handshake (the app proves it knows the
   * key before this side proves anything; ./handshake.ts), wait for the welcome.
   */
  private async open(): Promise<Connection> {
    if (this.options.approver) await this.checkApprover(this.options.approver);
    const key = await readTokenFile(this.endpoint.tokenFile, this.tokenPlace).catch(() => undefined);
    if (key === undefined) throw new NotRunning();
    const gatewayNonce = newNonce();
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(this.endpoint.socketPath);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        reject(
          e.code === 'ENOENT' || e.code === 'ECONNREFUSED'
            ? new NotRunning()
            : new ApprovalUnavailableError(`cannot reach the Countersign app: ${e.message}`),
        );
      });
    });
    const conn = new Connection(socket);
    const reader = new LineReader();
    const welcomed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ApprovalUnavailableError('the Countersign app did not answer the handshake')),
        this.options.handshakeTimeoutMs ?? 5_000,
      );
      let proven = false;
      const onFrame = (frame: AppFrame) => {
        if (frame.type === 'challenge' && !proven) {
          void this.answerChallenge(key, gatewayNonce, frame).then(
            (proof) => {
              proven = true;
              conn.send({ type: 'prove', proof });
            },
            (e: Error) => {
              clearTimeout(timer);
              reject(e);
            },
          );
          return;
        }
        if (!proven) {
          // Nothing but a challenge may come first: whoever holds the socket has not proved anything yet.
          clearTimeout(timer);
          if (frame.type === 'bye')
            return reject(new ApprovalUnavailableError(`the Countersign app refused the connection: ${frame.reason}`));
          return reject(this.impostor(`it sent "${frame.type}" instead of proving it knows the key`));
        }
        if (frame.type === 'welcome') {
          clearTimeout(timer);
          if (frame.protocol !== APPROVAL_PROTOCOL)
            return reject(
              new ApprovalUnavailableError(
                `the Countersign app speaks ${frame.protocol}, not ${APPROVAL_PROTOCOL}; update Countersign`,
              ),
            );
          return resolve();
        }
        if (frame.type === 'bye') {
          clearTimeout(timer);
          return reject(new ApprovalUnavailableError(`the Countersign app refused the connection: ${frame.reason}`));
        }
        this.deliver(conn, frame);
      };
      socket.on('data', (data: Buffer) => {
        let lines: string[];
        try {
          lines = reader.push(data);
        } catch (e) {
          this.log(`countersign gateway: approval channel: ${messageOf(e)}; disconnecting`);
          return conn.close(new ApprovalUnavailableError('the connection to the Countersign app broke'));
        }
        for (const line of lines) {
          const parsed = parseFrame(line, appFrameSchema);
          if (!parsed.ok) {
            this.log(`countersign gateway: approval channel: ${parsed.reason}; disconnecting`);
            return conn.close(new ApprovalUnavailableError('the connection to the Countersign app broke'));
          }
          onFrame(parsed.frame);
        }
      });
      socket.on('error', () => conn.close(new ApprovalUnavailableError('the connection to the Countersign app broke')));
      socket.on('close', () => {
        clearTimeout(timer);
        reject(new ApprovalUnavailableError('the Countersign app closed the connection during the handshake'));
        conn.close(new ApprovalUnavailableError('the Countersign app closed while a question was open'));
      });
    });
    conn.send({ type: 'hello', protocol: APPROVAL_PROTOCOL, nonce: gatewayNonce });
    try {
      await welcomed;
    } catch (e) {
      conn.close(e as Error);
      throw e;
    }
    this.conn = conn;
    return conn;
  }

  /** Refuse, loudly, a socket the approver cannot be the only one to have bound (./shared-folder.ts). */
  private async checkApprover(approver: Approver): Promise<void> {
    try {
      await checkApproverFolder(this.endpoint.runDir, approver);
    } catch (e) {
      if (e instanceof ApproverAppNotRunning) throw new NotRunning();
      this.log(`countersign gateway: WARNING: ${messageOf(e)}; nothing was sent there`);
      throw new ApprovalUnavailableError(`${messageOf(e)}; nothing was sent there`);
    }
  }

  /**
   * Check the app's proof and return this side's. A wrong proof is checked
   * once more against the key file as it is now (an app that restarted
   * between reading the key and connecting wrote a new one); still wrong,
   * the socket is held by something that is not this data folder's app.
   */
  private async answerChallenge(
    key: string,
    gatewayNonce: string,
    frame: Extract<AppFrame, { type: 'challenge' }>,
  ): Promise<string> {
    const proves = (k: string | undefined): k is string =>
      k !== undefined && checkProof(k, 'app', gatewayNonce, frame.nonce, frame.proof);
    if (proves(key)) return handshakeProof(key, 'gateway', gatewayNonce, frame.nonce);
    const current = await readTokenFile(this.endpoint.tokenFile, this.tokenPlace).catch(() => undefined);
    if (proves(current)) return handshakeProof(current, 'gateway', gatewayNonce, frame.nonce);
    throw this.impostor('it could not prove it knows the key');
  }

  /** The socket is held by a process that is not the app: say so loudly, send it nothing more. */
  private impostor(why: string): ApprovalUnavailableError {
    this.log(
      `countersign gateway: WARNING: the process listening at ${this.endpoint.socketPath} is not the Countersign ` +
        `app of this data folder (${why}, see ${this.endpoint.tokenFile}); nothing was sent to it. ` +
        `Another process may have replaced the app's socket.`,
    );
    return new ApprovalUnavailableError(
      'the approval socket is held by a process that is not the Countersign app; nothing was sent to it',
    );
  }

  private deliver(conn: Connection, frame: AppFrame): void {
    if (frame.type !== 'answer' && frame.type !== 'withdrawn') return;
    const waiting = conn.waiting.get(frame.id);
    if (!waiting) return; // cancelled meanwhile: the app recorded it, nobody waits
    conn.waiting.delete(frame.id);
    if (frame.type === 'answer') {
      const receipt = frame.receipt === undefined ? undefined : readReceipt(frame.receipt, this.log);
      waiting.resolve({
        answer: frame.answer,
        decidedBy: frame.decidedBy,
        ...(frame.urlOpened !== undefined ? { urlOpened: frame.urlOpened } : {}),
        ...(receipt ? { receipt } : {}),
      });
    } else if (frame.code === 'not-visible') {
      this.log(`countersign gateway: the app could not show a question: ${frame.reason}`);
      waiting.reject(new ApprovalNotVisibleError(frame.reason));
    } else if (frame.code !== undefined) {
      // The app's gate refused the question (it recorded why): the call ends as a refusal here would end it.
      this.log(`countersign gateway: the app refused a question: ${frame.reason}`);
      waiting.reject(new HostError(frame.code, frame.reason));
    } else {
      this.log(`countersign gateway: the app withdrew a question: ${frame.reason}`);
      waiting.reject(new ApprovalWithdrawnError(frame.reason));
    }
  }
}

/** A receipt the app sent, or undefined (logged) when it is not one: the answer still goes, without it. */
function readReceipt(value: unknown, log: (line: string) => void): Receipt | undefined {
  try {
    return parseReceipt(value);
  } catch (e) {
    log(`countersign gateway: the app sent a receipt that is not one (${messageOf(e)}); the answer goes without it`);
    return undefined;
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return isHostError(reason) ? reason : new HostError('cancelled', 'the call was cancelled');
}
