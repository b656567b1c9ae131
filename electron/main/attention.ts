// When and how Countersign asks for attention: a question that arrives while
// the window is hidden, minimised or in the background gets a native
// notification; a badge (dock, taskbar overlay, tray) shows how many wait.
// Pure decisions plus a small controller over an injected port, so all of it
// is tested without Electron (attention-port.ts is the Electron side).
import type { Question } from '../../shared/elicitation/types';
import { noticeFor, waitingQuestion, type NoticeDetail, type WaitingQuestion } from '../../shared/attention/notice';

/** What the controller needs to know about the window. */
export interface WindowState {
  exists: boolean;
  visible: boolean;
  minimized: boolean;
  focused: boolean;
}

/** Languages the host's own texts come in (the renderer has the same two). */
export type AttentionLanguage = 'en' | 'de';

/** True when the human is not looking at the window. */
export function needsAttention(win: WindowState): boolean {
  return !win.exists || !win.visible || win.minimized || !win.focused;
}

/** The badge text for a count: '' for none, '1'..'9', then '9+'. */
export function badgeText(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '';
  return count > 9 ? '9+' : String(Math.floor(count));
}

/** The tray tooltip, naming the number waiting. */
export function trayTooltip(count: number, lang: AttentionLanguage): string {
  if (count <= 0) return 'Countersign';
  if (lang === 'de') return `Countersign – ${count} ${count === 1 ? 'Frage wartet' : 'Fragen warten'}`;
  return `Countersign – ${count} ${count === 1 ? 'question' : 'questions'} waiting`;
}

/** The platform side: badges, tray, notifications, taskbar flashing. */
export interface AttentionPort {
  /** Dock / launcher / taskbar badge; 0 clears it. */
  setBadge(count: number, text: string): void;
  setTrayTooltip(text: string): void;
  /**
   * Show a notification, replacing the one shown before (a burst is one
   * notification that grows); `onClick` brings the window to the front.
   */
  notify(message: { title: string; body: string }, onClick: () => void): void;
  /** Flash (or stop flashing) the taskbar entry. */
  flash(on: boolean): void;
  windowState(): WindowState;
  /** Show, restore and focus the window (creating it if needed). */
  bringToFront(): void;
}

/** Keeps badge, tooltip, notifications and flashing in step with the question queue. */
export class AttentionController {
  private count = 0;
  /** Questions that arrived since the human last looked: what the current notification covers. */
  private readonly unseen = new Map<string, WaitingQuestion>();

  constructor(
    private readonly port: AttentionPort,
    private readonly language: () => AttentionLanguage,
    /** Settings → Notifications: whether a notification also shows the question's message. */
    private readonly detail: () => NoticeDetail = () => 'names',
  ) {}

  /** A question arrived; `count` is the number now waiting. */
  questionAdded(question: Pick<Question, 'id' | 'mode' | 'origin' | 'message'>, count: number): void {
    this.update(count);
    if (!needsAttention(this.port.windowState())) {
      this.unseen.clear();
      return;
    }
    if (this.unseen.has(question.id)) return; // one notification per question
    this.unseen.set(question.id, waitingQuestion(question, this.detail()));
    this.port.notify(noticeFor([...this.unseen.values()], this.language()), () => this.port.bringToFront());
    this.port.flash(true);
  }

  /** A question left the queue (answered, cancelled, server gone). */
  questionRemoved(count: number, questionId?: string): void {
    if (questionId !== undefined) this.unseen.delete(questionId);
    if (count === 0) this.unseen.clear();
    this.update(count);
    if (count === 0) this.port.flash(false);
  }

  /** The window got focus: the human is looking, stop flashing; the next question starts a new notification. */
  windowFocused(): void {
    this.unseen.clear();
    this.port.flash(false);
  }

  /** Re-apply badge and tooltip (language changed, tray re-created). */
  refresh(): void {
    this.port.setBadge(this.count, badgeText(this.count));
    this.port.setTrayTooltip(trayTooltip(this.count, this.language()));
  }

  private update(count: number): void {
    this.count = Math.max(0, count);
    this.refresh();
  }
}

/** The language for host texts: the setting, or for 'system' the OS locale (German if it starts with "de"). */
export function attentionLanguage(
  setting: 'system' | 'en' | 'de' | undefined,
  systemLocale: string,
): AttentionLanguage {
  if (setting === 'en' || setting === 'de') return setting;
  return /^de\b/i.test(systemLocale) ? 'de' : 'en';
}
