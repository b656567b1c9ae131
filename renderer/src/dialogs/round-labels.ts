// What the buttons of a question in a round put all at once say: nothing is
// sent before the last question, so the earlier ones go on ("Next") and the
// last one says what it sends ("Send 3 answers").
import type { Question } from '../../../shared/elicitation/types';
import type { Translate } from '../i18n/translate';

/** The round a question is shown in, one by one (absent outside such a round). */
export function shownRound(question: Question): { index: number; count: number } | undefined {
  const position = question.origin.roundPosition;
  return position?.roundId !== undefined ? { index: position.index, count: position.count } : undefined;
}

const LABELS = {
  form: { single: 'action.submit', next: 'action.next', last: 'action.sendAnswers' },
  confirm: { single: 'action.accept', next: 'action.acceptNext', last: 'action.acceptSend' },
  url: { single: 'action.done', next: 'action.doneNext', last: 'action.doneSend' },
} as const;

/** The label of the button that gives this question's (positive) answer, by dialog kind. */
export function answerLabel(question: Question, t: Translate, kind: keyof typeof LABELS): string {
  const round = shownRound(question);
  const labels = LABELS[kind];
  if (!round) return t(labels.single);
  return round.index < round.count ? t(labels.next) : t(labels.last, { count: round.count });
}

/** How the still-to-come questions of a round are named: by their field titles or their link's site, not by key. */
export function questionTitle(question: Question): string {
  if (question.mode === 'url') return question.url.hostUnicode || question.origin.key;
  const fields = Object.entries(question.requestedSchema.properties ?? {}).map(([name, f]) => f.title || name);
  if (fields.length > 0) return fields.join(', ');
  const line = question.message.trim().split('\n')[0] ?? '';
  return line ? (line.length > 60 ? `${line.slice(0, 59)}…` : line) : question.origin.key;
}
