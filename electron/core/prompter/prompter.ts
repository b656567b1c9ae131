// The one way a question reaches a human: the desktop UI, the web shell,
// the gateway's approval channel or a CLI script all implement this.
import type { Answer, Question } from '../../../shared/elicitation/types';
import type { SignInDecision, SignInQuestion } from '../../../shared/auth/types';

import type { DecidedBy } from '../../../shared/history/journal-types';
import type { Receipt } from '../passkeys/receipt';
import type { PasskeyStep } from '../passkeys/passkey-guard';

/** Who or what decided an answer; kept in the history (defined once, in shared/history). */
export type { DecidedBy };

/** An answer plus how it came about. */
export interface PrompterAnswer {
  answer: Answer;
  decidedBy: DecidedBy;
  /** URL mode: whether the host opened the link (the consent). */
  urlOpened?: boolean;
  /** Which rule or limit decided, when not the human (kept in the history). */
  decidedByDetail?: string;
  /** The app's gate confirmed the accept with the person's passkey (a gateway's answer from the app): the receipt. */
  receipt?: Receipt;
}

/** Puts questions to whoever answers them. */
export interface Prompter {
  /**
   * True when the prompter takes every question of a round at once and
   * answers each only when the human finished the round (the app's queue,
   * and the approval channel to it): the human can then go back to an
   * earlier answer before the round is sent. Others (scripts) get a round's
   * questions one at a time, in key order.
   */
  readonly asksRoundsTogether?: boolean;
  /**
   * Ask one question. Must settle: resolve with an answer, or reject when
   * `signal` aborts (the call was cancelled or the server went away), in
   * which case the question must be withdrawn from view.
   */
  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer>;
  /**
   * Ask the human to sign in (before any browser opens). Same rules as
   * `ask`: settle, and withdraw the question when `signal` aborts. A
   * prompter without it cannot sign in: the call ends "sign-in needed".
   */
  signIn?(question: SignInQuestion, signal: AbortSignal): Promise<SignInDecision>;
  /**
   * After consent the browser is open and the sign-in waits for it: show
   * that, with Cancel. Resolves when the human cancels the wait; `signal`
   * aborts when the wait is over (redirect, timeout, call cancelled) and the
   * question must then leave the view.
   */
  signInWaiting?(question: SignInQuestion, signal: AbortSignal): Promise<void>;
  /**
   * The person accepted a question that needs their passkey: show the passkey step (the link to Countersign's
   * confirmation page, with Cancel). Resolves with a cancel when the step ends without the page (the person's
   * Cancel, or the app closing: `decidedBy` says which); `signal` aborts when the step is over (the page posted its
   * result, or the call ended), and the step must then leave the view, saying `signal.reason`'s message. A
   * prompter without it (scripts) cannot confirm: such an answer is refused.
   */
  confirmWithPasskey?(step: PasskeyStep, signal: AbortSignal): Promise<PrompterAnswer>;
}

export type { PasskeyStep };

/** The part of a Prompter that takes sign-ins: all a Host needs when its questions go elsewhere. */
export type SignInPrompter = Pick<Prompter, 'signIn' | 'signInWaiting'>;
