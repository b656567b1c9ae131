import { useId, type ReactNode } from 'react';
import type { Question } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DialogShell from './DialogShell';
import MessageText from './MessageText';
import { PasskeyOffer } from './passkey-suggestion';
import { QuestionOriginLines } from './OriginLines';
import type { DialogProps } from './dialog-props';
import { shownRound } from './round-labels';
import { TaskCancelButton } from './TaskOriginLine';

/** Props: the question dialog's own, plus its kind, footer buttons and what the body shows under the message. */
export type QuestionShellProps = DialogProps & {
  kind: 'form' | 'confirm' | 'url';
  /** The dialog's title when it is not the kind's ("{server} asks …"): the host's own steps. */
  title?: string;
  status?: string | null;
  actions: ReactNode;
  children?: ReactNode;
};

/** A server's question in its DialogShell: titled by kind, its origin under the title, its message first. */
export default function QuestionShell({
  question,
  kind,
  title,
  children,
  toCome,
  status,
  ...shared
}: QuestionShellProps) {
  const t = useT();
  const messageId = useId();
  const { server } = question.origin;
  const round = shownRound(question);
  // `shared` is the dialog's own props (colour, queue, sending, answer, back, status, buttons); the rest it ignores.
  return (
    <DialogShell
      {...shared}
      questionId={question.id}
      // In a round, Escape (and Cancel) leave the whole round: the footer says so where it says what Esc does.
      status={status ?? (round ? t('dialog.escHintRound', { count: round.count }) : null)}
      kind={kind}
      server={server}
      title={title ?? t(`dialog.title.${kind}`, { server })}
      origin={<QuestionOriginLines origin={question.origin} toCome={toCome} />}
      describedBy={messageId}
      footerAside={
        question.origin.task && <TaskCancelButton task={question.origin.task} name={question.origin.name ?? server} />
      }
    >
      <MessageText id={messageId} message={question.message} />
      <PasskeyOffer question={question} />
      {children}
    </DialogShell>
  );
}
