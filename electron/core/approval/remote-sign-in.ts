// A sign-in a server behind a gateway needs, shown in the app (issue 10 §4).
// The gateway runs the sign-in itself (its ServerAuth, its loopback
// listener, the shared credential store); the app only asks the human and
// opens the link. The agent never sees any of it: it gets the call's result,
// "declined" or "sign-in needed".
//
// App side (`askSignIn`): the sign-in joins the app's queue; the app
// re-analyses the link itself (trusting nothing the gateway concluded) and
// refuses a blocked or look-alike one. On "Open in browser" it answers
// accept, waits for the gateway's `sign-in-open` (its listener is armed), and
// only then opens the link through its own open-external gate, while the
// human's consent request is still running. It then shows the wait; the
// human's Cancel goes back as `withdrawn`.
//
// Gateway side (`RemoteSignIns`): the Prompter's signIn / signInWaiting and
// the Host's `open` for a sign-in, over the approval client.
import type { SignInDecision, SignInQuestion } from '../../../shared/auth/types';
import type { SignInEvent } from '../auth/server-auth';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { HostError, messageOf } from '../host-error';
import type { Prompter } from '../prompter/prompter';
import type { ApprovalHost } from './approval-host';
import type { AppFrame, GatewayFrame, WireSignIn } from './protocol';
import type { OpenedLink } from '../links/launcher-file';

type SignInFrame = Extract<GatewayFrame, { type: 'sign-in' }>;

/** What the app-side handler needs from its peer connection. */
export interface SignInPeer {
  send(frame: AppFrame): void;
  /** Resolves when the gateway says its listener is ready for this sign-in. */
  opened(id: string): Promise<void>;
  log(line: string): void;
  /** Keep a step of this sign-in in the app's history. */
  record?(step: SignInStep, phase: SignInEvent['phase'], error?: string): void;
  /** The human accepted sign-in `id`: the gateway will say once how it ended. */
  accepted?(id: string, step: SignInStep): void;
  /** The app recorded how sign-in `id` ended itself: the gateway's word on it is not recorded again. */
  endRecorded?(id: string): void;
}

/** What every history step of one relayed sign-in shares. */
export type SignInStep = Pick<SignInEvent, 'server' | 'issuer' | 'scopes' | 'call' | 'questionId'>;

/** App side: one relayed sign-in, from the dialog to the end of the wait. */
export async function askSignIn(
  service: ApprovalHost,
  frame: SignInFrame,
  signal: AbortSignal,
  peer: SignInPeer,
): Promise<void> {
  const { questions } = service;
  const w = frame.signIn;
  const refuse = (reason: string) => {
    peer.log(`countersign: approval channel: refused a sign-in: ${reason}`);
    peer.send({ type: 'withdrawn', id: frame.id, reason: `the app refused the sign-in: ${reason}` });
  };
  if (!questions.signIn || !questions.signInWaiting || !questions.openSignInLink)
    return refuse('this app cannot show sign-ins');
  const url = analyzeUrl(w.url.href);
  if (url.blocked || url.lookalike === true)
    return refuse(`its link cannot be opened (${url.warnings.map((x) => x.message).join(' ')})`);
  if (service.isMuted(w.server)) return refuse(`questions from "${w.server}" are muted this session`);
  const question: SignInQuestion = {
    id: `gateway-${frame.id}-${Date.now().toString(36)}`,
    mode: 'sign-in',
    server: w.server,
    call: w.call
      ? { method: w.call.method, name: w.call.name, ...(w.call.agent ? { agent: w.call.agent } : {}) }
      : null,
    issuer: w.issuer,
    url,
    scopes: [...w.scopes],
    stepUp: w.stepUp,
    reportedBy: 'gateway',
  };
  const step: SignInStep = {
    server: w.server,
    issuer: w.issuer,
    scopes: [...w.scopes],
    call: question.call,
    questionId: question.id,
  };
  peer.record?.(step, 'asked');
  let decision: SignInDecision;
  try {
    decision = await questions.signIn(question, signal);
  } catch (e) {
    if (!signal.aborted) peer.send({ type: 'withdrawn', id: frame.id, reason: messageOf(e) });
    peer.record?.(step, 'cancelled', signal.aborted ? 'the gateway withdrew the sign-in' : messageOf(e));
    return;
  }
  if (decision !== 'open') {
    peer.send({ type: 'answer', id: frame.id, answer: { action: 'cancel' }, decidedBy: 'human' });
    peer.record?.(step, 'cancelled');
    return;
  }
  const ready = peer.opened(frame.id);
  peer.accepted?.(frame.id, step);
  peer.send({ type: 'answer', id: frame.id, answer: { action: 'accept' }, decidedBy: 'human', urlOpened: true });
  const aborted = new Promise<'aborted'>((resolve) => signal.addEventListener('abort', () => resolve('aborted')));
  if ((await Promise.race([ready.then(() => 'ready' as const), aborted])) === 'aborted') return;
  let opened: OpenedLink | void;
  try {
    opened = await questions.openSignInLink(url.href);
  } catch (e) {
    peer.send({ type: 'withdrawn', id: frame.id, reason: `the sign-in link was not opened: ${messageOf(e)}` });
    peer.record?.(step, 'failed', `the sign-in link was not opened: ${messageOf(e)}`);
    peer.endRecorded?.(frame.id);
    return;
  }
  peer.record?.(step, 'opened');
  try {
    await questions.signInWaiting(question, signal);
    // How it ended (cancelled here, or not) comes from the gateway's sign-in-end, recorded once.
    peer.send({ type: 'withdrawn', id: frame.id, reason: 'the sign-in was cancelled in the Countersign app' });
  } catch {
    // The wait is over (the gateway said so, or it went away): nothing more to say.
  } finally {
    // The redirect came (to the gateway's listener) or the sign-in ended: the launcher page goes.
    if (opened) await opened.close().catch(() => undefined);
  }
}

/** The approval client, as far as relayed sign-ins use it. */
export interface SignInChannel {
  /** Send the sign-in; resolves with the app's answer and the frame id. */
  askSignIn(signIn: WireSignIn, signal: AbortSignal): Promise<{ id: string; accepted: boolean }>;
  /** Tell the app the listener is ready: it may open the link now. */
  openSignIn(id: string): void;
  /** Tell the app how a consented sign-in ended (for its history). */
  endSignIn(id: string, outcome: 'completed' | 'failed' | 'cancelled', error?: string): void;
  /** Resolves when the app withdraws the id (the human cancelled the wait); sends `cancel` when `signal` aborts. */
  signInWithdrawn(id: string, signal: AbortSignal): Promise<void>;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Gateway side: sign-ins put to the app, and the opening of their links by the app. */
export class RemoteSignIns {
  /** Consented sign-ins by link, until the Host opens them. */
  private readonly consented = new Map<string, string>();
  /** Question id to frame id, for the wait. */
  private readonly frames = new Map<string, string>();
  /** Server to the frame id of its consented sign-in, until the gateway's ServerAuth says how it ended. */
  private readonly ending = new Map<string, string>();

  constructor(private readonly channel: SignInChannel) {}

  /** The Prompter's part: ask in the app. */
  readonly prompter: Required<Pick<Prompter, 'signIn' | 'signInWaiting'>> = {
    signIn: async (q, signal) => {
      const { id, accepted } = await this.channel.askSignIn(
        {
          server: cut(q.server, 200),
          call: q.call
            ? {
                method: cut(q.call.method, 100),
                name: cut(q.call.name, 2000),
                ...(q.call.agent ? { agent: cut(q.call.agent, 200) } : {}),
              }
            : null,
          issuer: q.issuer,
          url: { href: q.url.href },
          scopes: q.scopes,
          stepUp: q.stepUp,
        },
        signal,
      );
      if (!accepted) return 'cancel';
      this.consented.set(q.url.href, id);
      this.frames.set(q.id, id);
      this.ending.set(q.server, id);
      return 'open';
    },
    signInWaiting: (q, signal) => {
      const id = this.frames.get(q.id);
      this.frames.delete(q.id);
      if (id === undefined) return Promise.reject(new HostError('cancelled', 'no such sign-in'));
      return this.channel.signInWithdrawn(id, signal);
    },
  };

  /**
   * The gateway's ServerAuth events: the end of a sign-in the human consented
   * to in the app is told to the app, which keeps the history. (One sign-in
   * runs per server at a time, so the server names it.)
   */
  event = (e: SignInEvent): void => {
    if (e.phase !== 'completed' && e.phase !== 'failed' && e.phase !== 'cancelled') return;
    const id = this.ending.get(e.server);
    if (id === undefined) return;
    this.ending.delete(e.server);
    this.channel.endSignIn(id, e.phase, e.error);
  };

  /** The Host's `open` for a sign-in: the app opens the link the human consented to, nothing else. */
  open = async (url: string): Promise<void> => {
    const id = this.consented.get(url);
    this.consented.delete(url);
    if (id === undefined) throw new Error('refused to open a sign-in link the human did not consent to in the app');
    this.channel.openSignIn(id);
  };
}
