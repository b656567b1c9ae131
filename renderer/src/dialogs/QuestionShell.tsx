import { useId, type ReactNode } from 'react';
import type { Question } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DialogShell from './DialogShell';
import MessageText from './MessageText';
import { QuestionOriginLines } from './OriginLines';
import type { DialogProps } from './dialog-props';

/** Props: the question dialog's own, plus its kind, footer buttons and what the body shows under the message. */
export type QuestionShellProps = DialogProps & {
  kind: 'form' | 'confirm' | 'url';
  status?: string | null;
  actions: ReactNode;
  children?: ReactNode;
};

/** A server's question in its DialogShell: titled by kind, its origin under the title, its message first. */
export default function QuestionShell({ question, kind, children, ...shared }: QuestionShellProps) {
  const t = useT();
  const messageId = useId();
  const { server } = question.origin;
  // `shared` is the dialog's own props (colour, queue, sending, answer, back, status, buttons); the rest it ignores.
  return (
    <DialogShell
      {...shared}
      questionId={question.id}
      kind={kind}
      server={server}
      title={t(`dialog.title.${kind}`, { server })}
      origin={<QuestionOriginLines origin={question.origin} />}
      describedBy={messageId}
    >
      <MessageText id={messageId} message={question.message} />
      {children}
    </DialogShell>
  );
}
