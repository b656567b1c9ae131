// When and how Countersign asks for attention: a question that arrives while
// the window is hidden, minimised or in the background gets a native
// notification; a badge (dock, taskbar overlay, tray) shows how many wait.
// Pure decisions plus a small controller over an injected port, so all of it
// is tested without Electron (attention-port.ts is the Electron side).
import type { Question } from '../../shared/elicitation/types';

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

// Server names come from config files the user may have imported: keep them to one short, printable line.
function displayName(server: string): string {
  const clean = server
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 60 ? `${clean.slice(0, 59)}…` : clean || '?';
}

/**
 * The notification for a new question. It names the server and the kind of
 * question but never repeats the server's message: OS notification centres
 * keep a history, and a server's text in system chrome is a spoofing surface.
 */
export function notificationFor(
  question: Pick<Question, 'mode' | 'origin'>,
  count: number,
  lang: AttentionLanguage,
): { title: string; body: string } {
  const server = displayName(question.origin.server);
  if (lang === 'de') {
    const who = `„${server}“`;
    const what =
      question.mode === 'url' ? `${who} bittet Sie, einen Link zu öffnen.` : `${who} bittet um Ihre Angaben.`;
    const more = count > 1 ? ` ${count} Fragen warten.` : '';
    return { title: 'Countersign: eine Frage wartet', body: `${what}${more}` };
  }
  const what = question.mode === 'url' ? `"${server}" asks you to open a link.` : `"${server}" asks for your input.`;
  const more = count > 1 ? ` ${count} questions are waiting.` : '';
  return { title: 'Countersign: a question is waiting', body: `${what}${more}` };
}

/** The platform side: badges, tray, notifications, taskbar flashing. */
export interface AttentionPort {
  /** Dock / launcher / taskbar badge; 0 clears it. */
  setBadge(count: number, text: string): void;
  setTrayTooltip(text: string): void;
  /** Show a notification; `onClick` brings the window to the front. */
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

  constructor(
    private readonly port: AttentionPort,
    private readonly language: () => AttentionLanguage,
  ) {}

  /** A question arrived; `count` is the number now waiting. */
  questionAdded(question: Pick<Question, 'mode' | 'origin'>, count: number): void {
    this.update(count);
    if (!needsAttention(this.port.windowState())) return;
    this.port.notify(notificationFor(question, count, this.language()), () => this.port.bringToFront());
    this.port.flash(true);
  }

  /** A question left the queue (answered, cancelled, server gone). */
  questionRemoved(count: number): void {
    this.update(count);
    if (count === 0) this.port.flash(false);
  }

  /** The window got focus: the human is looking, stop flashing. */
  windowFocused(): void {
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
