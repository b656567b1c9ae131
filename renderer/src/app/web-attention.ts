// The web shell's way of finding the person (the desktop app does this in
// main, electron/main/attention.ts; the tab title's count is App's): once the
// person allowed it, a browser notification for questions that arrive while
// the tab is hidden or in the background. The words are the shared ones:
// server and tool, the message only if Settings → Notifications says so, never
// arguments or a sign-in's link.
import { noticeFor, waitingQuestion, type NoticeDetail, type WaitingQuestion } from '../../../shared/attention/notice';
import type { QuestionQueue, QueuedQuestion } from '../state/question-queue';

/** The one tag every notification carries: a new one replaces the last, so a burst is one notification. */
export const NOTICE_TAG = 'countersign-questions';

function waiting(q: QueuedQuestion, detail: NoticeDetail): WaitingQuestion {
  if (q.mode === 'sign-in') return { mode: 'url', server: q.server, tool: null };
  return waitingQuestion(q, detail);
}

/** Follows the queue; returns the function that stops following. */
export function startWebAttention(
  queue: QuestionQueue,
  language: () => 'en' | 'de',
  detail: () => NoticeDetail = () => 'names',
): () => void {
  const known = new Set<string>();
  // Questions that arrived unseen: what the current notification covers.
  const unseen = new Map<string, WaitingQuestion>();
  const looking = () => document.visibilityState === 'visible' && document.hasFocus();

  const update = () => {
    const { questions } = queue.getState();
    const ids = new Set(questions.map((q) => q.id));
    for (const id of [...unseen.keys()]) if (!ids.has(id)) unseen.delete(id);
    let added = false;
    for (const q of questions) {
      if (known.has(q.id)) continue;
      known.add(q.id);
      if (!looking()) {
        unseen.set(q.id, waiting(q, detail()));
        added = true;
      }
    }
    for (const id of [...known]) if (!ids.has(id)) known.delete(id);
    if (!added || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const { title, body } = noticeFor([...unseen.values()], language());
    const n = new Notification(title, { body, tag: NOTICE_TAG });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  };
  const seen = () => {
    if (looking()) unseen.clear();
  };
  const unsubscribe = queue.subscribe(update);
  window.addEventListener('focus', seen);
  document.addEventListener('visibilitychange', seen);
  update();
  return () => {
    unsubscribe();
    window.removeEventListener('focus', seen);
    document.removeEventListener('visibilitychange', seen);
  };
}
