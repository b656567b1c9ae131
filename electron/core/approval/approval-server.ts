// The app side of the approval channel: gateways connect here with the
// questions their servers ask, the app shows them in its own queue (the same
// dialogs as its own calls), records question and answer in its history (the
// one journal writer), and only then replies. The answer is therefore on disk
// before the gateway, and so the server, learns it: write-ahead across
// processes.
//
// What reaches the history from a connection is what the app itself issued
// or saw on it: its questions and their outcomes, its sign-in dialogs, and
// the calls those questions named. The gateway's word is taken for one thing
// only, how such a call or an accepted sign-in ended, once each and bounded
// in size. A peer that proved the key and then sends anything else is
// dropped and leaves one fault; a peer that never proved it leaves nothing.
import type { SignInEvent } from '../auth/server-auth';
import type { SignInStep } from './remote-sign-in';
import { randomBytes } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { CallContext, HostObserver } from '../events';
import { HostError, isHostError, messageOf } from '../host-error';
import { capLine, LIMITS } from '../limits';
import { QuestionGate, type AskContext, type ElicitParams } from '../prompter/question-gate';
import type { ApprovalAlert, ApprovalHost, Visibility } from './approval-host';
import { identityOf, watchSocket, type SocketWatch } from './socket-watch';
import { askSignIn } from './remote-sign-in';
import { approvalEndpoint, ensurePrivateDir, sharedEndpoint, writeTokenFile, type ApprovalEndpoint } from './endpoint';
import { ensureSharedFolder, readShare, shareSocket, writeSharedKey } from './shared-folder';
import {
  APPROVAL_PROTOCOL,
  FrameTooLargeError,
  LineReader,
  encodeFrame,
  gatewayFrameSchema,
  parseFrame,
  type AppFrame,
  type GatewayFrame,
  type WireCall,
  type WithdrawnCode,
  NOT_VISIBLE,
  WIRE_LIMITS,
} from './protocol';
import { checkProof, handshakeProof, newNonce, NONCE_PATTERN } from './handshake';
import { stderrLog } from '../terminal-output';

export type { ApprovalAlert, ApprovalHost, Visibility };

export interface ApprovalServerOptions {
  service: ApprovalHost;
  /** The data folder; the socket and token live in its private run folder. */
  dataDir: string;
  /** Shown to gateways in the welcome frame ("desktop", "web"). */
  app?: string;
  log?: (line: string) => void;
  /** Open questions one gateway may have at once. Default LIMITS.pendingPerPeer. */
  maxPendingPerPeer?: number;
  /** Gateways connected at once. Default LIMITS.approvalPeers. */
  maxPeers?: number;
  /** How long a new peer has to say hello. Default 5 s. */
  helloTimeoutMs?: number;
  /** How often the socket's path is re-checked besides the folder watch. Default 2 s. */
  socketPollMs?: number;
}

/** A running approval server. */
export interface ApprovalServer {
  readonly endpoint: ApprovalEndpoint;
  /** Peers connected right now. */
  readonly peerCount: number;
  /** Check now whether the socket's path still names this app's socket (the watch does it by itself). */
  checkSocket(): Promise<void>;
  /** Withdraw every open question (recorded as cancelled), disconnect, remove the socket. */
  close(): Promise<void>;
}

/** Another app already serves this data folder. */
export class ApprovalServerInUseError extends Error {
  constructor(path: string) {
    super(`another Countersign app is already answering questions for this data folder (${path})`);
  }
}

function isLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Start serving questions from gateways for `dataDir`. */
export async function startApprovalServer(options: ApprovalServerOptions): Promise<ApprovalServer> {
  const log = options.log ?? stderrLog;
  const unix = process.platform !== 'win32';
  // Shared with an agent's group (DATA/approval-share.json): a folder of its own outside the data folder.
  const share = unix ? readShare(options.dataDir) : undefined;
  const endpoint = share ? sharedEndpoint(share.folder) : approvalEndpoint(options.dataDir);
  if (share) await ensureSharedFolder(share);
  else {
    await ensurePrivateDir(endpoint.runDir);
    if (unix) await ensurePrivateDir(dirname(endpoint.socketPath));
  }
  if (await isLive(endpoint.socketPath)) throw new ApprovalServerInUseError(endpoint.socketPath);
  if (unix) await unlink(endpoint.socketPath).catch(() => undefined); // a stale socket from a crashed app

  const token = randomBytes(32).toString('base64url');
  if (share) await writeSharedKey(endpoint.tokenFile, token, share.gid);
  else await writeTokenFile(endpoint.tokenFile, token);
  // The folder is already private (or the share's); the socket's own mode is a second lock.
  const lockSocket = (path: string) => (share ? shareSocket(path, share.gid) : chmod(path, 0o600));

  // One gate for every gateway: the per-server limit counts across connections.
  const { service } = options;
  const gate = new QuestionGate(
    service.questions,
    explainedObserver(service.observer),
    (s) => service.isMuted(s),
    () => service.questionTimeLimitMinutes?.() ?? 0,
    service.passkeyGuard,
  );
  const peers = new Set<Peer>();
  /** History writes of peers already gone (a dropped peer's fault, its withdrawn questions): close() waits for them. */
  const draining = new Set<Promise<void>>();
  const maxPeers = options.maxPeers ?? LIMITS.approvalPeers;
  const onConnection = (socket: Socket) => {
    if (peers.size >= maxPeers) {
      log(`countersign: approval channel: refused a gateway connection: ${maxPeers} are already connected`);
      socket.end(
        encodeFrame({ type: 'bye', reason: `the app already serves ${maxPeers} gateway connections (its limit)` }),
      );
      return;
    }
    const peer = new Peer(socket, token, gate, options, log, (writes) => {
      peers.delete(peer);
      const done: Promise<void> = writes.finally(() => draining.delete(done));
      draining.add(done);
    });
    peers.add(peer);
  };
  let server = await listen(endpoint.socketPath, onConnection, log);
  if (unix) await lockSocket(endpoint.socketPath);

  let closed = false;
  const watch = unix
    ? await watchOwnSocket(endpoint, options, log, async () => {
        // Bind the path again. The old listener is closed first: Node removes
        // a Unix socket's path when its listener closes, which would take the
        // new socket with it. Gateways already connected stay connected.
        server.close();
        await unlink(endpoint.socketPath).catch(() => undefined);
        server = await listen(endpoint.socketPath, onConnection, log);
        await lockSocket(endpoint.socketPath);
        return server;
      })
    : undefined;
  return {
    endpoint,
    get peerCount() {
      return peers.size;
    },
    checkSocket: () => watch?.check() ?? Promise.resolve(),
    async close() {
      if (closed) return;
      closed = true;
      watch?.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...peers].map((p) => p.shutdown('the Countersign app is closing')));
      await Promise.all([...draining]);
      await stopped;
      if (unix) await unlink(endpoint.socketPath).catch(() => undefined);
      // A key left behind would outlive the app in a folder the agent's group can read.
      await unlink(endpoint.tokenFile).catch(() => undefined);
    },
  };
}

/** Listen on `path`; resolves once listening. */
async function listen(path: string, onConnection: (s: Socket) => void, log: (line: string) => void): Promise<Server> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (e) => log(`countersign: approval channel: ${messageOf(e)}`));
  return server;
}

/**
 * Watch the socket's path (./socket-watch.ts) and say loudly when another
 * process removed or replaced it: a stderr line, a banner in the app, a fault
 * in the history. A removed socket (or a file nobody listens on) is bound
 * again; a live socket of another process is left alone, and the app says
 * so, rather than fight over the path (an attacker would simply win the
 * next round, and the banner would then lie).
 */
async function watchOwnSocket(
  endpoint: ApprovalEndpoint,
  options: ApprovalServerOptions,
  log: (line: string) => void,
  rebind: () => Promise<Server>,
): Promise<SocketWatch | undefined> {
  const path = endpoint.socketPath;
  const bound = await identityOf(path);
  if (!bound) return undefined;
  const alert = (kind: ApprovalAlert['kind'], message: string) => {
    log(`countersign: ${kind === 'socket-restored' ? '' : 'WARNING: '}${message}`);
    options.service.alert?.({ kind, message });
    if (kind !== 'socket-restored')
      void Promise.resolve(
        options.service.observer.fault?.({
          call: null,
          code: 'connection',
          message,
          details: { reason: `approval-${kind}` },
          at: new Date().toISOString(),
        }),
      ).catch(() => undefined);
  };
  const watch: SocketWatch = watchSocket(
    path,
    bound,
    async (state) => {
      if (state === 'ours') return;
      if (state === 'replaced' && (await isLive(path))) {
        alert(
          'socket-replaced',
          `another process replaced the approval socket ${path} and listens there now. ` +
            'Gateways that connect reach that process, not this app; ' +
            `they refuse it unless it proves it knows the key in ${endpoint.tokenFile}, ` +
            'which any process of this user can read. This app does not fight over the path: ' +
            'find and stop that process, then restart Countersign.',
        );
        return;
      }
      const what =
        state === 'missing'
          ? 'removed the approval socket'
          : 'put a file nobody listens on in place of the approval socket';
      alert('socket-missing', `another process ${what} ${path}; gateways could not reach this app. Binding it again.`);
      try {
        await rebind();
        const now = await identityOf(path);
        if (now) watch.rebound(now);
        alert('socket-restored', `the approval socket ${path} is bound again; gateways reach this app.`);
      } catch (e) {
        alert(
          'socket-missing',
          `could not bind the approval socket ${path} again: ${messageOf(e)}. Restart Countersign.`,
        );
      }
    },
    options.socketPollMs,
  );
  return watch;
}

/** One connected gateway. */
class Peer {
  private readonly reader = new LineReader();
  private readonly pending = new Map<string, AbortController>();
  /** Sign-ins consented to, waiting for the gateway to say its listener is ready. */
  private readonly signInOpen = new Map<string, () => void>();
  /** Sign-ins the human accepted on this connection, by frame id, until the gateway says how they ended (bounded). */
  private readonly signInsAccepted = new Map<string, AcceptedSignIn>();
  /** Calls this connection asked questions for, as the app saw them: each takes one end from the gateway. */
  private readonly calls = new Map<string, CallContext>();
  private readonly settled = new Set<Promise<void>>();
  private greeted = false;
  /** Both nonces, once the hello came. */
  private nonces: { gateway: string; app: string } | undefined;
  private gone = false;
  /** Records are applied one after another, in the order they arrived. */
  private records: Promise<void> = Promise.resolve();
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    /** The handshake key (never sent: see ./handshake.ts). */
    private readonly key: string,
    private readonly gate: QuestionGate,
    private readonly options: ApprovalServerOptions,
    private readonly log: (line: string) => void,
    /** Called once, with the history writes still under way. */
    private readonly onGone: (writes: Promise<void>) => void,
  ) {
    this.helloTimer = setTimeout(() => this.drop('no hello in time'), options.helloTimeoutMs ?? 5_000);
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('error', () => this.lost('the gateway connection failed'));
    socket.on('close', () => this.lost('the agent connection closed'));
  }

  private recordSignIn(step: SignInStep, phase: SignInEvent['phase'], error?: string): Promise<void> {
    const service = this.options.service;
    if (!service.recordSignIn) return Promise.resolve();
    return this.enqueue('a sign-in step', () =>
      service.recordSignIn?.({
        ...step,
        phase,
        ...(error ? { error } : {}),
        reportedBy: 'gateway',
        at: new Date().toISOString(),
      }),
    );
  }

  private send(frame: AppFrame): void {
    if (this.gone || this.socket.destroyed) return;
    // A reason can quote a server's words (the gate's refusals name its keys and problems); past the wire's limit
    // the gateway would drop the connection, and every other call on it with it.
    const sent =
      (frame.type === 'withdrawn' || frame.type === 'bye') && frame.reason.length > WIRE_LIMITS.reason
        ? { ...frame, reason: capLine(frame.reason, WIRE_LIMITS.reason) }
        : frame;
    this.socket.write(encodeFrame(sent));
  }

  private onData(data: Buffer): void {
    let lines: string[];
    try {
      lines = this.reader.push(data);
    } catch (e) {
      this.drop(e instanceof FrameTooLargeError ? e.message : messageOf(e));
      return;
    }
    for (const line of lines) {
      if (this.gone) return;
      const parsed = parseFrame(line, gatewayFrameSchema);
      if (!parsed.ok) return this.drop(parsed.reason);
      this.handle(parsed.frame);
    }
  }

  private handle(frame: GatewayFrame): void {
    if (!this.greeted) {
      // The handshake (./handshake.ts): the app proves itself first, then the gateway.
      if (!this.nonces) {
        if (frame.type !== 'hello') return this.drop(`expected hello, got ${frame.type}`);
        if (frame.protocol !== APPROVAL_PROTOCOL) {
          clearTimeout(this.helloTimer);
          this.send({ type: 'bye', reason: `this app speaks ${APPROVAL_PROTOCOL}, not ${frame.protocol}` });
          return this.drop(`protocol ${frame.protocol} is not ${APPROVAL_PROTOCOL}`, false);
        }
        if (!NONCE_PATTERN.test(frame.nonce)) return this.drop('the hello carries no valid nonce');
        const nonces = { gateway: frame.nonce, app: newNonce() };
        this.nonces = nonces;
        this.send({
          type: 'challenge',
          nonce: nonces.app,
          proof: handshakeProof(this.key, 'app', nonces.gateway, nonces.app),
        });
        return;
      }
      if (frame.type !== 'prove') return this.drop(`expected prove, got ${frame.type}`);
      clearTimeout(this.helloTimer);
      if (!checkProof(this.key, 'gateway', this.nonces.gateway, this.nonces.app, frame.proof))
        return this.drop('wrong proof of the key (not a gateway of this data folder)');
      this.greeted = true;
      this.send({ type: 'welcome', protocol: APPROVAL_PROTOCOL, app: this.options.app ?? 'countersign' });
      return;
    }
    switch (frame.type) {
      case 'hello':
      case 'prove':
        return this.drop(`${frame.type} sent after the handshake`);
      case 'ask': {
        if (frame.call && !this.sawCall(frame.call)) return;
        if (this.pending.has(frame.id)) return this.drop(`question id ${frame.id} is already open`);
        if (this.pending.size >= (this.options.maxPendingPerPeer ?? LIMITS.pendingPerPeer)) {
          this.send({ type: 'withdrawn', id: frame.id, reason: 'too many open questions from this agent connection' });
          return;
        }
        const controller = new AbortController();
        this.pending.set(frame.id, controller);
        const done = this.ask(frame, controller.signal).finally(() => {
          this.pending.delete(frame.id);
          this.settled.delete(done);
        });
        this.settled.add(done);
        return;
      }
      case 'cancel':
        this.pending.get(frame.id)?.abort(new HostError('cancelled', 'the agent cancelled the call'));
        return;
      case 'sign-in': {
        if (this.pending.has(frame.id)) return this.drop(`question id ${frame.id} is already open`);
        const controller = new AbortController();
        this.pending.set(frame.id, controller);
        const done = askSignIn(this.options.service, frame, controller.signal, {
          send: (f) => this.send(f),
          opened: (id) => new Promise<void>((resolve) => this.signInOpen.set(id, resolve)),
          record: (step, phase, error) => this.recordSignIn(step, phase, error),
          accepted: (id, step) => {
            this.signInsAccepted.set(id, { step, endRecorded: false });
            // A gateway that never reports an end must not grow this map: the oldest goes first.
            if (this.signInsAccepted.size > LIMITS.pendingPerPeer)
              this.signInsAccepted.delete(this.signInsAccepted.keys().next().value!);
          },
          endRecorded: (id) => {
            const accepted = this.signInsAccepted.get(id);
            if (accepted) accepted.endRecorded = true;
          },
          log: (line) => this.log(line),
        }).finally(() => {
          this.pending.delete(frame.id);
          this.signInOpen.delete(frame.id);
          this.settled.delete(done);
        });
        this.settled.add(done);
        return;
      }
      case 'sign-in-open':
        this.signInOpen.get(frame.id)?.();
        return;
      case 'sign-in-end': {
        // Once for a sign-in the human accepted on this connection; recorded unless the app already recorded its end.
        const accepted = this.signInsAccepted.get(frame.id);
        if (!accepted)
          return this.drop(
            `it sent a sign-in end for ${JSON.stringify(frame.id)}, ` +
              'no sign-in accepted on this connection that has not ended',
          );
        this.signInsAccepted.delete(frame.id);
        if (!accepted.endRecorded) void this.recordSignIn(accepted.step, frame.outcome, frame.error);
        return;
      }
      case 'call-ended': {
        // Once for a call this connection asked about; the entry names the call as the app saw it.
        const call = this.calls.get(frame.callId);
        if (!call)
          return this.drop(
            `it sent an end for call ${JSON.stringify(frame.callId)}, ` +
              'no call that asked on this connection and has not ended',
          );
        this.calls.delete(frame.callId);
        const observer = this.options.service.observer;
        void this.enqueue('a call end', () =>
          observer.callEnded?.({
            call,
            outcome: frame.outcome,
            ...(frame.isError !== undefined ? { isError: frame.isError } : {}),
            ...(frame.error !== undefined ? { error: frame.error } : {}),
            rounds: frame.rounds,
            endedAt: new Date().toISOString(),
          }),
        );
        return;
      }
    }
  }

  /**
   * Note a call an ask names: the first ask fixes how the app records it, and
   * it may then end once. A call that changes its server, or one call too
   * many still open, drops the peer.
   */
  private sawCall(call: WireCall): boolean {
    const seen = this.calls.get(call.callId);
    if (seen) {
      if (seen.server === call.server) return true;
      this.drop(`call ${JSON.stringify(call.callId)} was on "${seen.server}" and now names "${call.server}"`);
      return false;
    }
    if (this.calls.size >= LIMITS.callsPerPeer) {
      this.drop(`it asked about more than ${LIMITS.callsPerPeer} calls that have not ended`);
      return false;
    }
    this.calls.set(call.callId, toCallContext(call));
    return true;
  }

  /** Write one history entry after those before it, in arrival order; a failure is logged, not thrown. */
  private enqueue(what: string, write: () => void | Promise<void>): Promise<void> {
    this.records = this.records.then(async () => {
      try {
        await write();
      } catch (e) {
        this.log(`countersign: approval channel: could not record ${what}: ${messageOf(e)}`);
      }
    });
    return this.records;
  }

  /**
   * One question, start to finish, through the app's one QuestionGate (the
   * same rules, limits and write-ahead recording as the app's own calls):
   * record, show (unless muted), check and record the answer, then reply.
   */
  private async ask(frame: Extract<GatewayFrame, { type: 'ask' }>, signal: AbortSignal): Promise<void> {
    const origin = frame.context;
    if (frame.call && frame.call.server !== origin.server) {
      const reason = `the question names server "${origin.server}" but its call is on "${frame.call.server}"`;
      this.log(`countersign: approval channel: refused a question: ${reason}`);
      this.send({ type: 'withdrawn', id: frame.id, reason: `the app refused the question: ${reason}` });
      return;
    }
    const call = frame.call ? (this.calls.get(frame.call.callId) ?? null) : null;
    if (!(await this.visible(frame, call, signal))) return;
    // The server's question as it came: this gate builds and checks it, as for the app's own calls.
    const params: ElicitParams = frame.question;
    const ctx: AskContext = {
      call,
      server: origin.server,
      era: origin.era,
      round: origin.round,
      key: origin.key,
      ...(origin.roundPosition !== undefined ? { roundPosition: origin.roundPosition } : {}),
      ...(origin.lastRound ? { lastRound: true } : {}),
      ...(frame.requestState ? { requestState: frame.requestState } : {}),
      reported: {
        ...(origin.timeLimitMinutes !== undefined ? { timeLimitMinutes: origin.timeLimitMinutes } : {}),
        method: origin.method,
        name: origin.name,
        ...(origin.argumentsSummary !== undefined ? { argumentsSummary: origin.argumentsSummary } : {}),
      },
    };
    try {
      const { answer, decided, receipt } = await this.gate.ask(params, ctx, signal);
      this.send({
        type: 'answer',
        id: frame.id,
        answer,
        decidedBy: decided.decidedBy,
        ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
        ...(receipt ? { receipt } : {}),
      });
    } catch (e) {
      // The gate refused the question (recorded as a fault): the gateway ends the call with the same sentence
      // as a refusal in its own process would give.
      const code = !signal.aborted && isHostError(e) ? refusalCode(e) : undefined;
      const reason = signal.aborted ? messageOf(signal.reason) : messageOf(e);
      if (!signal.aborted) this.log(`countersign: approval channel: a gateway question ended: ${reason}`);
      this.send({ type: 'withdrawn', id: frame.id, reason, ...(code ? { code } : {}) });
    }
  }

  /**
   * An approval nobody can see is not a wait: when no window or tab can show
   * the question, the gateway is told at once (code not-visible), the
   * history records why, and the human gets a system notification.
   */
  private async visible(
    frame: Extract<GatewayFrame, { type: 'ask' }>,
    call: CallContext | null,
    signal: AbortSignal,
  ): Promise<boolean> {
    const service = this.options.service;
    if (!service.whenVisible) return true;
    const seen = await service.whenVisible(signal);
    if (seen.visible) return true;
    if (signal.aborted) {
      this.send({ type: 'withdrawn', id: frame.id, reason: messageOf(signal.reason) });
      return false;
    }
    const server = frame.context.server;
    const message = `${NOT_VISIBLE}: ${seen.reason}`;
    this.log(`countersign: approval channel: refused a question from "${server}" at once: ${message}`);
    service.notify?.(
      'Countersign: an agent’s question was not shown',
      `Nobody could see the Countersign app (${seen.reason}), so the question was refused and nothing was done. ` +
        'Open Countersign, then let the agent try again.',
    );
    await Promise.resolve(
      service.observer.fault?.({
        call,
        code: 'connection',
        message,
        details: { reason: 'approval-app-not-visible', server },
        at: new Date().toISOString(),
      }),
    ).catch((e: unknown) => this.log(`countersign: approval channel: could not record a fault: ${messageOf(e)}`));
    this.send({ type: 'withdrawn', id: frame.id, reason: message, code: 'not-visible' });
    return false;
  }

  /**
   * Drop a misbehaving peer, saying why in the app's log. A peer that proved
   * the key leaves one fault in the history, whatever it sent after; one that
   * never proved it leaves none (anyone who can open the socket could
   * otherwise write there).
   */
  private drop(reason: string, logIt = true): void {
    if (this.gone) return;
    if (logIt) this.log(`countersign: approval channel: dropped a gateway connection: ${reason}`);
    if (this.greeted) {
      const observer = this.options.service.observer;
      void this.enqueue('a fault', () =>
        observer.fault?.({
          call: null,
          code: 'protocol',
          message: capLine(`the app dropped a gateway connection: ${reason}; nothing it sent after that was recorded`),
          details: { reason: 'approval-peer-dropped' },
          at: new Date().toISOString(),
        }),
      );
    }
    this.lost('the agent connection was dropped');
    this.socket.destroy();
  }

  /** The peer is gone: withdraw its open questions (the history records them as cancelled). */
  private lost(reason: string): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.helloTimer);
    for (const c of this.pending.values()) c.abort(new HostError('cancelled', reason));
    // The withdrawn questions, then whatever else was queued (a drop's fault), reach the history after this.
    this.onGone(Promise.allSettled([...this.settled]).then(() => this.records));
  }

  /** App shutdown: withdraw everything, let the records land, then hang up. */
  async shutdown(reason: string): Promise<void> {
    // Each open question is recorded as cancelled and its gateway told so.
    for (const c of this.pending.values()) c.abort(new HostError('cancelled', reason));
    await Promise.all([...this.settled]);
    await this.records;
    this.gone = true;
    clearTimeout(this.helloTimer);
    this.socket.end();
    this.onGone(Promise.resolve());
  }
}

/** A sign-in the human accepted: the gateway reports its end once; recorded unless the app recorded it already. */
interface AcceptedSignIn {
  step: SignInStep;
  endRecorded: boolean;
}

/** The peer's call context, as the core's observers expect it: marked as the gateway's word. */
function toCallContext(call: WireCall): CallContext {
  return { ...call, reportedBy: 'gateway' };
}

/** Record failures say what was not done, so the gateway's log and the agent's error are plain. */
function explainedObserver(inner: HostObserver): HostObserver {
  return {
    async questionAsked(e) {
      try {
        await inner.questionAsked?.(e);
      } catch (error) {
        throw new Error(`the app could not record the question, so it was not shown: ${messageOf(error)}`);
      }
    },
    async answerRecorded(e) {
      try {
        await inner.answerRecorded?.(e);
      } catch (error) {
        // Write-ahead: an answer that is not on disk is not sent.
        throw new Error(`the app could not record the answer, so it was not sent: ${messageOf(error)}`);
      }
    },
    callEnded: (e) => inner.callEnded?.(e),
    fault: (e) => inner.fault?.(e),
  };
}

/** The withdrawn code for a question the app's gate refused, if it refused it. */
function refusalCode(error: HostError): Exclude<WithdrawnCode, 'not-visible'> | undefined {
  return error.code === 'invalid-schema' ||
    error.code === 'invalid-answer' ||
    error.code === 'protocol' ||
    error.code === 'passkey-needed'
    ? error.code
    : undefined;
}
