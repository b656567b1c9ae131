// The prompter behind the desktop UI and the web shell: questions wait in a
// queue until the human answers them through the host API. Every question is
// answered exactly once; a question whose call is cancelled or whose server
// goes away leaves the queue with a reason the UI can show.
//
// Sign-ins wait in the same queue. "Open in browser" (openQuestionUrl) is the
// consent: the core then opens the link through `openSignInLink`, i.e. the
// same open-external gate, while that very request is still running (so the
// gate's consent for exactly that link is armed). The sign-in then stays in
// the queue, marked waiting, until the browser comes back or the human
// cancels.
import { randomUUID } from 'node:crypto';
import type { HostEvents } from '../../../shared/host-api/contract';
import type { Answer, Question } from '../../../shared/elicitation/types';
import type { SignInDecision, SignInQuestion } from '../../../shared/auth/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { HostError, isHostError } from '../host-error';
import type { PasskeyStep, Prompter, PrompterAnswer } from '../prompter/prompter';
import { checkAnswer } from '../prompter/question-gate';
import type { Emitter } from './emitter';
import type { OpenedLink } from '../links/launcher-file';

interface PendingQuestion {
  kind: 'question';
  question: Question;
  resolve(answer: PrompterAnswer): void;
  urlOpened: boolean;
}

interface PendingSignIn {
  kind: 'sign-in';
  question: SignInQuestion;
  /** ask: waiting for consent; opening: consented, the core is opening the link; waiting: the browser is open. */
  phase: 'ask' | 'opening' | 'waiting';
  decide(decision: SignInDecision): void;
  /** Settles the openQuestionUrl request that consented, once the link was opened (or not). */
  opened?: { resolve(): void; reject(e: unknown): void };
  /** Ends the wait for the browser (the human's Cancel). */
  cancelWait?(): void;
  /** Links open in the person's tab: the checked link the consenting request hands back. */
  openHere?: string;
}

type Pending = PendingQuestion | PendingSignIn;

/**
 * Opens a link in the system browser through a private launcher page
 * (core/links/launcher-file.ts); closing the result removes the page early.
 */
export type OpenExternal = (url: string) => Promise<OpenedLink | void>;

/**
 * Where a consented link opens: the system browser (the desktop app, through OpenExternal), or the tab the person
 * consented in (the web shell, which may run on a machine with no desktop): the host checks the link as always and
 * hands back exactly what to open, and the tab opens it from the click, with noopener.
 */
export type LinkOpening = 'system' | 'tab';

/** What a consent (openQuestionUrl) returns. */
export interface OpenResult {
  opened: boolean;
  reason?: string;
  /** Set in 'tab' mode: the link, as the host checked it, for the consenting tab to open. */
  openHere?: string;
}

export class QueuePrompter implements Prompter {
  /** The renderer shows a round's questions one by one with Back, and answers them when the round is done. */
  readonly asksRoundsTogether = true;
  private readonly pending = new Map<string, Pending>();
  /** Sign-ins cancelled in the moment between the browser opening and the core starting to wait. */
  private readonly cancelledWaits = new Set<string>();

  constructor(
    private readonly events: Emitter<HostEvents>,
    private readonly openExternal: OpenExternal,
    private readonly linkOpening: LinkOpening = 'system',
  ) {}

  /** Questions waiting, oldest first. */
  list(): Question[] {
    return [...this.pending.values()].flatMap((p) => (p.kind === 'question' ? [p.question] : []));
  }

  /** Sign-ins waiting (for consent, or for the browser), oldest first. */
  listSignIns(): SignInQuestion[] {
    return [...this.pending.values()].flatMap((p) => (p.kind === 'sign-in' ? [p.question] : []));
  }

  get size(): number {
    return this.pending.size;
  }

  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    return new Promise<PrompterAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(question.id)) return;
        const reason = signal.reason;
        const serverGone = isHostError(reason, 'connection');
        const ended = isHostError(reason, 'cancelled') && reason.details?.callEnded === true;
        const timedOut = isHostError(reason, 'cancelled') && reason.details?.timedOut === true;
        this.events.emit('questionRemoved', {
          questionId: question.id,
          reason: serverGone ? 'server-gone' : ended ? 'call-ended' : timedOut ? 'timeout' : 'call-cancelled',
          note: timedOut
            ? `${capitalise(reason.message)}; the question was cancelled.`
            : serverGone
              ? `The server "${question.origin.server}" went away; the question was withdrawn.`
              : ended
                ? `${capitalise(reason.message)}; the question was withdrawn and nothing will be sent.`
                : isHostError(reason, 'cancelled') && reason.details?.taskCancelled === true
                  ? `${capitalise(reason.message)}; the question was withdrawn.`
                  : 'The call was cancelled; the question was withdrawn.',
        });
        reject(reason instanceof Error ? reason : new HostError('cancelled', 'the call was cancelled'));
      };
      this.enqueue(question, signal, onAbort, resolve);
    });
  }

  /** Put `question` in the queue until it is answered (`resolve`) or `signal` aborts (`onAbort`, also at once). */
  private enqueue(
    question: Question,
    signal: AbortSignal,
    onAbort: () => void,
    resolve: (answer: PrompterAnswer) => void,
  ): void {
    if (signal.aborted) return onAbort();
    this.pending.set(question.id, {
      kind: 'question',
      question,
      urlOpened: false,
      resolve: (a) => {
        signal.removeEventListener('abort', onAbort);
        resolve(a);
      },
    });
    signal.addEventListener('abort', onAbort, { once: true });
    this.events.emit('questionAdded', question);
  }

  /**
   * The passkey step of an accepted question: Countersign's own confirmation page, put to the person as a link in
   * the same queue (the dialog knows it by `origin.passkeyStep`). Opening it goes through the same consent as any
   * link; the page, not the dialog, confirms, so an accept here is refused. The step leaves the queue when the page
   * posted its result or the call ended (`signal`, whose reason the dialog's note says).
   */
  confirmWithPasskey(step: PasskeyStep, signal: AbortSignal): Promise<PrompterAnswer> {
    const q = step.question;
    const question: Question = {
      id: randomUUID(),
      mode: 'url',
      origin: { ...q.origin, passkeyStep: { questionId: q.id, reason: step.reason } },
      message:
        'Confirm this answer with your passkey. Countersign’s confirmation page shows what your passkey signs: ' +
        'the server, the tool and the hashes of the arguments, the question and your answer.',
      url: analyzeUrl(step.url),
    };
    return new Promise<PrompterAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(question.id)) return;
        const reason: unknown = signal.reason;
        this.events.emit('questionRemoved', {
          questionId: question.id,
          reason: isHostError(reason, 'connection') ? 'server-gone' : 'answered',
          note: `${capitalise(reason instanceof Error ? reason.message : 'the passkey step ended')}.`,
        });
        reject(reason instanceof Error ? reason : new HostError('cancelled', 'the passkey step ended'));
      };
      this.enqueue(question, signal, onAbort, resolve);
    });
  }

  /**
   * The human's answer, given in `place` (the window or tab, as the host
   * names the connection it came on; kept in the history). Invalid content
   * is refused with a clear error and the question stays open, so nothing
   * typed is lost.
   */
  answer(questionId: string, answer: Answer, place?: string): void {
    const p = this.pending.get(questionId);
    if (!p)
      throw new HostError(
        'invalid-answer',
        `question ${questionId} is not waiting for an answer (already answered, cancelled or unknown)`,
      );
    if (p.kind === 'sign-in') return this.answerSignIn(p, answer);
    // An app's link has nothing to send back: opening it (openUrl) is the only yes, so no answer can claim one.
    if (p.question.origin.app && answer.action === 'accept')
      throw new HostError('invalid-answer', 'an app’s link is accepted only by opening it (Open in browser)');
    // Only the passkey, on the page, confirms: the dialog can only leave the step.
    if (p.question.origin.passkeyStep && answer.action === 'accept')
      throw new HostError('invalid-answer', 'a passkey step is confirmed only on its page, with the passkey');
    const checked = checkAnswer(p.question, answer);
    this.pending.delete(questionId);
    this.events.emit('questionRemoved', { questionId, reason: 'answered' });
    p.resolve({
      answer: checked,
      decidedBy: 'human',
      ...(place ? { decidedByDetail: place } : {}),
      ...(p.question.mode === 'url' ? { urlOpened: p.urlOpened } : {}),
    });
  }

  /**
   * Consent to a URL question: open exactly the link the server sent, after
   * checking it again here, in the host process, never trusting the view.
   */
  async openUrl(questionId: string): Promise<OpenResult> {
    const p = this.pending.get(questionId);
    if (!p) return { opened: false, reason: 'the question is no longer waiting' };
    if (p.kind === 'sign-in') return this.consentSignIn(p);
    if (p.question.mode !== 'url') return { opened: false, reason: 'the question has no link' };
    const analysis = analyzeUrl(p.question.url.href);
    if (analysis.blocked)
      return { opened: false, reason: `the link is blocked: ${analysis.warnings.map((w) => w.message).join(' ')}` };
    if (this.linkOpening === 'tab') {
      p.urlOpened = true;
      this.endAppLink(questionId, p);
      return { opened: true, openHere: serialised(analysis.href) };
    }
    await this.openExternal(analysis.href);
    p.urlOpened = true;
    this.endAppLink(questionId, p);
    return { opened: true };
  }

  /** An app's link question is over once its link opened: there is no server waiting to be told it is done. */
  private endAppLink(questionId: string, p: PendingQuestion): void {
    if (!p.question.origin.app || this.pending.get(questionId) !== p) return;
    this.pending.delete(questionId);
    this.events.emit('questionRemoved', { questionId, reason: 'answered', note: 'The link the app asked for opened.' });
    p.resolve({ answer: { action: 'accept' }, decidedBy: 'human', urlOpened: true });
  }

  /**
   * Ask the human to sign in: the sign-in joins the queue like any question.
   * Resolves 'open' on consent (openQuestionUrl) or 'cancel'.
   */
  signIn(question: SignInQuestion, signal: AbortSignal): Promise<SignInDecision> {
    return new Promise<SignInDecision>((resolve, reject) => {
      const entry: PendingSignIn = {
        kind: 'sign-in',
        question: { ...question },
        phase: 'ask',
        decide: (d) => {
          signal.removeEventListener('abort', onAbort);
          resolve(d);
        },
      };
      const onAbort = () => {
        if (this.pending.get(question.id) !== entry) return;
        this.pending.delete(question.id);
        this.withdrawn(question.id, question.server, signal.reason);
        entry.opened?.reject(new Error('the sign-in ended before the link was opened'));
        reject(signal.reason instanceof Error ? signal.reason : new HostError('cancelled', 'the call was cancelled'));
      };
      if (signal.aborted) return onAbort();
      this.pending.set(question.id, entry);
      signal.addEventListener('abort', onAbort, { once: true });
      this.events.emit('signInAdded', entry.question);
    });
  }

  /** The browser is open: the sign-in stays in view, waiting, until `signal` says the wait is over. */
  signInWaiting(question: SignInQuestion, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = this.pending.get(question.id);
      const end = () => {
        if (this.pending.get(question.id) === entry) {
          this.pending.delete(question.id);
          this.events.emit('questionRemoved', {
            questionId: question.id,
            reason: 'answered',
            note: `The browser sign-in for "${question.server}" ended.`,
          });
        }
        reject(new HostError('cancelled', 'the wait for the browser is over'));
      };
      if (this.cancelledWaits.delete(question.id)) return resolve();
      if (!entry || entry.kind !== 'sign-in' || signal.aborted) return end();
      entry.cancelWait = () => {
        signal.removeEventListener('abort', end);
        resolve();
      };
      signal.addEventListener('abort', end, { once: true });
    });
  }

  /**
   * The core opens a sign-in link: only the link of a sign-in the human
   * just consented to, and through the same opener (the open-external gate)
   * as every URL question.
   */
  async openSignInLink(url: string): Promise<OpenedLink | void> {
    const entry = [...this.pending.values()].find(
      (p): p is PendingSignIn => p.kind === 'sign-in' && p.phase === 'opening' && p.question.url.href === url,
    );
    if (!entry) throw new Error('refused to open a sign-in link the human did not consent to');
    try {
      const href = analyzeUrl(url).href;
      let opened: OpenedLink | void = undefined;
      // In 'tab' mode the consenting request hands the link back for the person's tab to open.
      if (this.linkOpening === 'tab') entry.openHere = serialised(href);
      else opened = await this.openExternal(href);
      // The browser is open: from now on the dialog says it waits (Cancel still ends it).
      entry.phase = 'waiting';
      entry.question = { ...entry.question, waiting: true };
      entry.opened?.resolve();
      return opened;
    } catch (e) {
      // The core ends this sign-in with its own message; the dialog leaves, saying why.
      this.pending.delete(entry.question.id);
      this.events.emit('questionRemoved', {
        questionId: entry.question.id,
        reason: 'answered',
        note: `The sign-in link was not opened: ${e instanceof Error ? e.message : String(e)}`,
      });
      entry.opened?.reject(e);
      throw e;
    }
  }

  private async consentSignIn(p: PendingSignIn): Promise<OpenResult> {
    if (p.phase !== 'ask') return { opened: false, reason: 'the sign-in link was already opened' };
    const analysis = analyzeUrl(p.question.url.href);
    if (analysis.blocked)
      return { opened: false, reason: `the link is blocked: ${analysis.warnings.map((w) => w.message).join(' ')}` };
    p.phase = 'opening';
    const opened = new Promise<void>((resolve, reject) => (p.opened = { resolve, reject }));
    p.decide('open');
    try {
      await opened;
      return { opened: true, ...(p.openHere ? { openHere: p.openHere } : {}) };
    } catch (e) {
      // The core ends the sign-in (and its call) with its own message; the dialog says why here.
      return { opened: false, reason: e instanceof Error ? e.message : String(e) };
    }
  }

  private answerSignIn(p: PendingSignIn, answer: Answer): void {
    if (answer.action === 'accept')
      throw new HostError('invalid-answer', 'a sign-in is consented to only with Open in browser (openQuestionUrl)');
    this.pending.delete(p.question.id);
    this.events.emit('questionRemoved', { questionId: p.question.id, reason: 'answered' });
    if (p.phase === 'ask') p.decide('cancel');
    else if (p.cancelWait) p.cancelWait();
    else this.cancelledWaits.add(p.question.id);
  }

  private withdrawn(questionId: string, server: string, reason: unknown): void {
    const serverGone = isHostError(reason, 'connection');
    this.events.emit('questionRemoved', {
      questionId,
      reason: serverGone ? 'server-gone' : 'call-cancelled',
      note: serverGone
        ? `The server "${server}" went away; the sign-in was withdrawn.`
        : 'The call was cancelled; the sign-in was withdrawn.',
    });
  }

  /** Cancel everything waiting (window closed for good, app quitting). */
  cancelAll(): void {
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      this.events.emit('questionRemoved', { questionId: id, reason: 'answered', note: 'Dismissed.' });
      if (p.kind === 'sign-in') {
        if (p.phase === 'ask') p.decide('cancel');
        else if (p.cancelWait) p.cancelWait();
        else this.cancelledWaits.add(id);
        continue;
      }
      // Nobody answered: the app closed while the question waited. The history must not say "human".
      p.resolve({ answer: { action: 'cancel' }, decidedBy: 'app-closing' });
    }
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The WHATWG serialisation of a link the check let through (it parses): what the tab is handed, as the system
 * opener's launcher page forwards to it, with the host in its ASCII (xn--) form.
 */
function serialised(href: string): string {
  return new URL(href).href;
}
