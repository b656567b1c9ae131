import { useId, useMemo, type ReactNode } from 'react';
import type { Answer } from '../../../shared/elicitation/types';
import { AnswerSinkContext } from './AnswerButton';
import DialogFooter from './DialogFooter';
import DialogFrame, { type DialogFrameProps } from './DialogFrame';
import DialogHeader from './DialogHeader';

/** Props of the frame, header, body and footer every dialog that asks the human shares. */
export interface DialogShellProps {
  questionId: string;
  kind: DialogFrameProps['kind'];
  /** The server that asks (the header's badge). */
  server: string;
  title: string;
  /** Under the title: where the question comes from. */
  origin: ReactNode;
  colour: number;
  waiting: number;
  sending: boolean;
  sendError: string | null;
  /** Sends the human's answer; Escape and the close button send cancel. */
  onAnswer: (answer: Answer) => void;
  /** Within a round: back to the previous question. */
  onBack?: (() => void) | undefined;
  /** The id of what describes the dialog (its message, or its consent note). */
  describedBy: string;
  /** The footer's own status line (e.g. "correct 2 fields"), if any. */
  status?: string | null;
  /** The footer buttons, primary last (AnswerButton sends an answer from here). */
  actions: ReactNode;
  /** The body. */
  children: ReactNode;
  /** In the footer beside the status: a control that is not an answer. */
  footerAside?: ReactNode;
}

/**
 * A dialog that asks the human: the modal frame (focus on the dialog, never on
 * a button; Escape cancels), the header with who asks and a close button that
 * cancels, the body, and the footer with its status line and buttons.
 */
export default function DialogShell({
  questionId,
  kind,
  sending,
  sendError,
  onAnswer,
  onBack,
  describedBy,
  status,
  actions,
  children,
  footerAside,
  ...header
}: DialogShellProps) {
  const titleId = useId();
  const cancel = () => onAnswer({ action: 'cancel' });
  const sink = useMemo(() => ({ sending, onAnswer }), [sending, onAnswer]);
  return (
    <DialogFrame questionId={questionId} kind={kind} labelledBy={titleId} describedBy={describedBy} onCancel={cancel}>
      <DialogHeader {...header} titleId={titleId} busy={sending} onClose={cancel} />
      <div className="dialog-body">{children}</div>
      <DialogFooter sending={sending} sendError={sendError} status={status} onBack={onBack} aside={footerAside}>
        <AnswerSinkContext.Provider value={sink}>{actions}</AnswerSinkContext.Provider>
      </DialogFooter>
    </DialogFrame>
  );
}
