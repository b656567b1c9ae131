// The prompter behind the desktop UI and the web shell: questions wait in a
// queue until the human answers them through the host API. Every question is
// answered exactly once; a question whose call is cancelled or whose server
// goes away leaves the queue with a reason the UI can show.
import type { HostEvents } from '../../../shared/host-api/contract';
import type { Answer, Question } from '../../../shared/elicitation/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { HostError, isHostError } from '../host-error';
import type { Prompter, PrompterAnswer } from '../prompter/prompter';
import { checkAnswer } from '../prompter/question-gate';
import type { Emitter } from './emitter';

interface Pending {
  question: Question;
  resolve(answer: PrompterAnswer): void;
  urlOpened: boolean;
}

/** Opens a link in the system browser (Electron's shell.openExternal, or the OS opener). */
export type OpenExternal = (url: string) => Promise<void>;

export class QueuePrompter implements Prompter {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly events: Emitter<HostEvents>,
    private readonly openExternal: OpenExternal,
  ) {}

  /** Questions waiting, oldest first. */
  list(): Question[] {
    return [...this.pending.values()].map((p) => p.question);
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
                : 'The call was cancelled; the question was withdrawn.',
        });
        reject(reason instanceof Error ? reason : new HostError('cancelled', 'the call was cancelled'));
      };
      if (signal.aborted) return onAbort();
      this.pending.set(question.id, {
        question,
        urlOpened: false,
        resolve: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.events.emit('questionAdded', question);
    });
  }

  /**
   * The human's answer. Invalid content is refused with a clear error and
   * the question stays open, so nothing typed is lost.
   */
  answer(questionId: string, answer: Answer): void {
    const p = this.pending.get(questionId);
    if (!p)
      throw new HostError(
        'invalid-answer',
        `question ${questionId} is not waiting for an answer (already answered, cancelled or unknown)`,
      );
    const checked = checkAnswer(p.question, answer);
    this.pending.delete(questionId);
    this.events.emit('questionRemoved', { questionId, reason: 'answered' });
    p.resolve({
      answer: checked,
      decidedBy: 'human',
      ...(p.question.mode === 'url' ? { urlOpened: p.urlOpened } : {}),
    });
  }

  /**
   * Consent to a URL question: open exactly the link the server sent, after
   * checking it again here, in the host process, never trusting the view.
   */
  async openUrl(questionId: string): Promise<{ opened: boolean; reason?: string }> {
    const p = this.pending.get(questionId);
    if (!p) return { opened: false, reason: 'the question is no longer waiting' };
    if (p.question.mode !== 'url') return { opened: false, reason: 'the question has no link' };
    const analysis = analyzeUrl(p.question.url.href);
    if (analysis.blocked)
      return { opened: false, reason: `the link is blocked: ${analysis.warnings.map((w) => w.message).join(' ')}` };
    await this.openExternal(analysis.href);
    p.urlOpened = true;
    return { opened: true };
  }

  /** Cancel everything waiting (window closed for good, app quitting). */
  cancelAll(): void {
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      this.events.emit('questionRemoved', { questionId: id, reason: 'answered', note: 'Dismissed.' });
      // Nobody answered: the app closed while the question waited. The history must not say "human".
      p.resolve({ answer: { action: 'cancel' }, decidedBy: 'app-closing' });
    }
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
