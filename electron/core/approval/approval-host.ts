// What the approval server asks of the app it serves (HostService, or the web
// shell's host), apart from the server itself so the handlers it runs (the
// relayed sign-in) can name it without importing the server back.
import type { HostEvents } from '../../../shared/host-api/contract';
import type { SignInEvent } from '../auth/server-auth';
import type { HostObserver } from '../events';
import type { OpenedLink } from '../links/launcher-file';
import type { Prompter } from '../prompter/prompter';
import type { PasskeyGuard } from '../passkeys/passkey-guard';

/** What the approval server needs from the app (HostService provides it). */
export interface ApprovalHost {
  /** The app's own question queue: what the human sees. */
  readonly questions: Prompter & {
    /** Open a consented sign-in's link through the app's open-external gate (QueuePrompter). */
    openSignInLink?(url: string): Promise<OpenedLink | void>;
  };
  /** The app's history observer (the journal). */
  readonly observer: HostObserver;
  /** "Stop asking this session" for a server. */
  isMuted(server: string): boolean;
  /** The passkey step of accepts that need one (Settings → Passkeys); gateway questions get it too. */
  readonly passkeyGuard?: PasskeyGuard;
  /** Settings → Question time limit as it is now, in minutes (0: none); gateway questions get it too. */
  questionTimeLimitMinutes?(): number;
  /** Tell the human something is wrong with the approval channel (the app shows a banner). */
  alert?(alert: ApprovalAlert): void;
  /**
   * Whether the human can see a question now (a window, a connected tab); it
   * may wait briefly for one on its way. Absent: always (the desktop app has
   * its window). A question nobody can see is refused at once, never queued.
   */
  whenVisible?(signal: AbortSignal): Promise<Visibility>;
  /** Tell the human through the system (a desktop notification), where there is one. */
  notify?(title: string, body: string): void;
  /** Keep a sign-in step in the history: a gateway's sign-in as the app saw it and as the gateway says it ended. */
  recordSignIn?(event: SignInEvent): Promise<void>;
}

/** Can a question be seen now? */
export type Visibility = { visible: true } | { visible: false; reason: string };

/** Something the human must know about the approval channel. */
export type ApprovalAlert = HostEvents['appAlert'];
