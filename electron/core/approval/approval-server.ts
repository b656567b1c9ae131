// The app side of the approval channel: gateways connect here with the
// questions their servers ask, the app shows them in its own queue (the same
// dialogs as its own calls), records question and answer in its history (the
// one journal writer), and only then replies. The answer is therefore on disk
// before the gateway, and so the server, learns it: write-ahead across
// processes.
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { checkFlatSchema } from '../../../shared/elicitation/schema-rules';
import type { Question, QuestionOrigin } from '../../../shared/elicitation/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import type { CallContext, HostObserver, StateDigest } from '../events';
import { HostError, messageOf } from '../host-error';
import type { Prompter, PrompterAnswer } from '../prompter/prompter';
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
  type WireQuestion,
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
  /** Open questions one gateway may have at once. Default 64. */
  maxPendingPerPeer?: number;
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

  const peers = new Set<Peer>();
  const server: Server = createServer((socket) => {
    const peer = new Peer(socket, token, options, log, () => peers.delete(peer));
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
  private readonly settled = new Set<Promise<void>>();
  private greeted = false;
  private gone = false;
  /** Records are applied one after another, in the order they arrived. */
  private records: Promise<void> = Promise.resolve();
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly token: string,
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
        if (this.pending.size >= (this.options.maxPendingPerPeer ?? 64)) {
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

  /** One question, start to finish: record, show (unless muted), record the answer, reply. */
  private async ask(frame: Extract<GatewayFrame, { type: 'ask' }>, signal: AbortSignal): Promise<void> {
    const { service } = this.options;
    const rebuilt = rebuildQuestion(frame.question, frame.call);
    if (!rebuilt.ok) {
      this.log(`countersign: approval channel: refused a question: ${rebuilt.reason}`);
      this.send({ type: 'withdrawn', id: frame.id, reason: `the app refused the question: ${rebuilt.reason}` });
      return;
    }
    const question = rebuilt.question;
    const call = frame.call ? toCallContext(frame.call) : null;
    const digest: { requestState?: StateDigest } = frame.requestState ? { requestState: frame.requestState } : {};
    try {
      await service.observer.questionAsked?.({ call, question, askedAt: new Date().toISOString(), ...digest });
    } catch (e) {
      this.send({
        type: 'withdrawn',
        id: frame.id,
        reason: `the app could not record the question, so it was not shown: ${messageOf(e)}`,
      });
      return;
    }

    let decided: PrompterAnswer;
    let withdrawn: string | undefined;
    if (service.isMuted(question.origin.server)) {
      decided = { answer: { action: 'cancel' }, decidedBy: 'mute-rule' };
    } else {
      try {
        decided = await service.questions.ask(question, signal);
      } catch (e) {
        decided = { answer: { action: 'cancel' }, decidedBy: 'call-cancelled' };
        withdrawn = signal.aborted ? messageOf(signal.reason) : messageOf(e);
      }
    }
    try {
      await service.observer.answerRecorded?.({
        call,
        question,
        answer: decided.answer,
        decidedBy: decided.decidedBy,
        ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
        answeredAt: new Date().toISOString(),
        ...digest,
      });
    } catch (e) {
      // Write-ahead: an answer that is not on disk is not sent.
      this.send({
        type: 'withdrawn',
        id: frame.id,
        reason: `the app could not record the answer, so it was not sent: ${messageOf(e)}`,
      });
      return;
    }
    if (withdrawn !== undefined) {
      this.send({ type: 'withdrawn', id: frame.id, reason: withdrawn });
      return;
    }
    this.send({
      type: 'answer',
      id: frame.id,
      answer: decided.answer,
      decidedBy: decided.decidedBy,
      ...(decided.urlOpened !== undefined ? { urlOpened: decided.urlOpened } : {}),
    });
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

/** The peer's call context, as the core's observers expect it. */
function toCallContext(call: WireCall): CallContext {
  return { ...call };
}

/**
 * Build the app's own Question from the peer's: a fresh id (a peer cannot
 * collide with another question in the queue), the form schema re-checked
 * by the shared flat-schema rules, the URL re-analysed here.
 */
function rebuildQuestion(
  q: WireQuestion,
  call: WireCall | null,
): { ok: true; question: Question } | { ok: false; reason: string } {
  const origin: QuestionOrigin & { agent?: string } = {
    server: q.origin.server,
    era: q.origin.era,
    method: q.origin.method,
    name: q.origin.name,
    round: q.origin.round,
    key: q.origin.key,
    ...(q.origin.argumentsSummary !== undefined ? { argumentsSummary: q.origin.argumentsSummary } : {}),
    ...(q.origin.timeLimitMinutes !== undefined ? { timeLimitMinutes: q.origin.timeLimitMinutes } : {}),
    ...(q.origin.roundPosition !== undefined ? { roundPosition: q.origin.roundPosition } : {}),
  };
  // Which agent connection asked: shown with the question and kept in history.
  const agent = call?.agent ?? q.origin.agent;
  if (agent !== undefined) origin.agent = agent;
  if (call && call.server !== q.origin.server)
    return { ok: false, reason: `the question names server "${q.origin.server}" but its call is on "${call.server}"` };
  const id = randomUUID();
  if (q.mode === 'url')
    return { ok: true, question: { id, mode: 'url', origin, message: q.message, url: analyzeUrl(q.url.href) } };
  const checked = checkFlatSchema(q.requestedSchema);
  if (!checked.ok)
    return {
      ok: false,
      reason: `its form is not a flat schema (${checked.errors[0]?.path || '(schema)'}: ${checked.errors[0]?.message})`,
    };
  return { ok: true, question: { id, mode: 'form', origin, message: q.message, requestedSchema: checked.schema } };
}
