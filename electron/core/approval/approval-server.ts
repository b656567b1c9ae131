// The app side of the approval channel: gateways connect here with the
// questions their servers ask, the app shows them in its own queue (the same
// dialogs as its own calls), records question and answer in its history (the
// one journal writer), and only then replies. The answer is therefore on disk
// before the gateway, and so the server, learns it: write-ahead across
// processes.
import { randomBytes } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { CallContext, HostObserver } from '../events';
import { HostError, isHostError, messageOf } from '../host-error';
import { LIMITS } from '../limits';
import type { Prompter } from '../prompter/prompter';
import { QuestionGate, type AskContext, type ElicitParams } from '../prompter/question-gate';
import { approvalEndpoint, ensurePrivateDir, writeTokenFile, type ApprovalEndpoint } from './endpoint';
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
} from './protocol';

/** What the approval server needs from the app (HostService provides it). */
export interface ApprovalHost {
  /** The app's own question queue: what the human sees. */
  readonly questions: Prompter;
  /** The app's history observer (the journal). */
  readonly observer: HostObserver;
  /** "Stop asking this session" for a server. */
  isMuted(server: string): boolean;
}

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
}

/** A running approval server. */
export interface ApprovalServer {
  readonly endpoint: ApprovalEndpoint;
  /** Peers connected right now. */
  readonly peerCount: number;
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
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const endpoint = approvalEndpoint(options.dataDir);
  const unix = process.platform !== 'win32';
  await ensurePrivateDir(endpoint.runDir);
  if (unix) await ensurePrivateDir(dirname(endpoint.socketPath));
  if (await isLive(endpoint.socketPath)) throw new ApprovalServerInUseError(endpoint.socketPath);
  if (unix) await unlink(endpoint.socketPath).catch(() => undefined); // a stale socket from a crashed app

  const token = randomBytes(32).toString('base64url');
  await writeTokenFile(endpoint.tokenFile, token);

  // One gate for every gateway: the per-server limit counts across connections.
  const { service } = options;
  const gate = new QuestionGate(service.questions, explainedObserver(service.observer), (s) => service.isMuted(s));
  const peers = new Set<Peer>();
  const maxPeers = options.maxPeers ?? LIMITS.approvalPeers;
  const server: Server = createServer((socket) => {
    if (peers.size >= maxPeers) {
      log(`countersign: approval channel: refused a gateway connection: ${maxPeers} are already connected`);
      socket.end(
        encodeFrame({ type: 'bye', reason: `the app already serves ${maxPeers} gateway connections (its limit)` }),
      );
      return;
    }
    const peer = new Peer(socket, token, gate, options, log, () => peers.delete(peer));
    peers.add(peer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The folder is already 0700; the socket's own mode is a second lock.
  if (unix) await chmod(endpoint.socketPath, 0o600);
  server.on('error', (e) => log(`countersign: approval channel: ${messageOf(e)}`));

  let closed = false;
  return {
    endpoint,
    get peerCount() {
      return peers.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...peers].map((p) => p.shutdown('the Countersign app is closing')));
      await stopped;
      if (unix) await unlink(endpoint.socketPath).catch(() => undefined);
    },
  };
}

/** One connected gateway. */
class Peer {
  private readonly reader = new LineReader();
  private readonly pending = new Map<string, AbortController>();
  /** Calls this connection asked questions for (call id to server): the only ones it may report on. */
  private readonly calls = new Map<string, string>();
  private readonly settled = new Set<Promise<void>>();
  private greeted = false;
  private gone = false;
  /** Records are applied one after another, in the order they arrived. */
  private records: Promise<void> = Promise.resolve();
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly token: string,
    private readonly gate: QuestionGate,
    private readonly options: ApprovalServerOptions,
    private readonly log: (line: string) => void,
    private readonly onGone: () => void,
  ) {
    this.helloTimer = setTimeout(() => this.drop('no hello in time'), options.helloTimeoutMs ?? 5_000);
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('error', () => this.lost('the gateway connection failed'));
    socket.on('close', () => this.lost('the agent connection closed'));
  }

  private send(frame: AppFrame): void {
    if (!this.gone && !this.socket.destroyed) this.socket.write(encodeFrame(frame));
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
      if (frame.type !== 'hello') return this.drop(`expected hello, got ${frame.type}`);
      clearTimeout(this.helloTimer);
      if (frame.protocol !== APPROVAL_PROTOCOL) {
        this.send({ type: 'bye', reason: `this app speaks ${APPROVAL_PROTOCOL}, not ${frame.protocol}` });
        return this.drop(`protocol ${frame.protocol} is not ${APPROVAL_PROTOCOL}`, false);
      }
      if (frame.token !== this.token) return this.drop('wrong token');
      this.greeted = true;
      this.send({ type: 'welcome', protocol: APPROVAL_PROTOCOL, app: this.options.app ?? 'countersign' });
      return;
    }
    switch (frame.type) {
      case 'hello':
        return this.drop('hello sent twice');
      case 'ask': {
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
      case 'record': {
        // A peer reports only on calls that asked it questions, and once per call
        // ending: anything else would let any connected process write the history.
        const call = frame.payload.call;
        const asked = call ? this.calls.get(call.callId) : undefined;
        if (!call || asked !== call.server) {
          this.log(
            `countersign: approval channel: ignored a ${frame.event} record from a gateway: ${call ? `call ${JSON.stringify(call.callId)} on "${call.server}" asked nothing on this connection` : 'it names no call'}`,
          );
          return;
        }
        if (frame.event === 'callEnded') this.calls.delete(call.callId);
        const observer = this.options.service.observer;
        this.records = this.records.then(async () => {
          try {
            if (frame.event === 'callEnded')
              await observer.callEnded?.({ ...frame.payload, call: toCallContext(frame.payload.call) });
            else
              await observer.fault?.({
                ...frame.payload,
                call: frame.payload.call ? toCallContext(frame.payload.call) : null,
              });
          } catch (e) {
            this.log(`countersign: approval channel: could not record a ${frame.event} event: ${messageOf(e)}`);
          }
        });
        return;
      }
    }
  }

  /**
   * One question, start to finish, through the app's one QuestionGate (the
   * same rules, limits and write-ahead recording as the app's own calls):
   * record, show (unless muted), check and record the answer, then reply.
   */
  private async ask(frame: Extract<GatewayFrame, { type: 'ask' }>, signal: AbortSignal): Promise<void> {
    const q = frame.question;
    if (frame.call && frame.call.server !== q.origin.server) {
      const reason = `the question names server "${q.origin.server}" but its call is on "${frame.call.server}"`;
      this.log(`countersign: approval channel: refused a question: ${reason}`);
      this.send({ type: 'withdrawn', id: frame.id, reason: `the app refused the question: ${reason}` });
      return;
    }
    const call = frame.call ? toCallContext(frame.call) : null;
    if (call) this.calls.set(call.callId, call.server);
    const params: ElicitParams =
      q.mode === 'url'
        ? { mode: 'url', message: q.message, url: q.url.href }
        : { mode: 'form', message: q.message, requestedSchema: q.requestedSchema };
    const ctx: AskContext = {
      call,
      server: q.origin.server,
      era: q.origin.era,
      round: q.origin.round,
      key: q.origin.key,
      ...(q.origin.roundPosition !== undefined ? { roundPosition: q.origin.roundPosition } : {}),
      ...(frame.requestState ? { requestState: frame.requestState } : {}),
      reported: {
        ...(q.origin.timeLimitMinutes !== undefined ? { timeLimitMinutes: q.origin.timeLimitMinutes } : {}),
        method: q.origin.method,
        name: q.origin.name,
        ...(q.origin.argumentsSummary !== undefined ? { argumentsSummary: q.origin.argumentsSummary } : {}),
        ...(q.origin.agent !== undefined ? { agent: q.origin.agent } : {}),
      },
    };
    try {
      const { answer, decided } = await this.gate.ask(params, ctx, signal);
      this.send({
        type: 'answer',
        id: frame.id,
        answer,
        decidedBy: decided.decidedBy,
        ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
      });
    } catch (e) {
      const reason = signal.aborted
        ? messageOf(signal.reason)
        : isHostError(e, 'invalid-schema') || isHostError(e, 'protocol')
          ? `the app refused the question: ${messageOf(e)}`
          : messageOf(e);
      if (!signal.aborted) this.log(`countersign: approval channel: a gateway question ended: ${reason}`);
      this.send({ type: 'withdrawn', id: frame.id, reason });
    }
  }

  /** Drop a misbehaving peer, saying why in the app's log. */
  private drop(reason: string, logIt = true): void {
    if (this.gone) return;
    if (logIt) this.log(`countersign: approval channel: dropped a gateway connection: ${reason}`);
    this.lost('the agent connection was dropped');
    this.socket.destroy();
  }

  /** The peer is gone: withdraw its open questions (the history records them as cancelled). */
  private lost(reason: string): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.helloTimer);
    for (const c of this.pending.values()) c.abort(new HostError('cancelled', reason));
    this.onGone();
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
    this.onGone();
  }
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
