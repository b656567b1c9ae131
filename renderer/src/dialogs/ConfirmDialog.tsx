import type { FormQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import AnswerButton, { acceptLook } from './AnswerButton';
import QuestionShell from './QuestionShell';
import { answerLabel } from './round-labels';
import type { DialogProps } from './dialog-props';

/**
 * A form question with no fields: the message, and Cancel, Decline and Accept
 * (Escape and the close button cancel too). Focus starts on the dialog, never on Accept, so a
 * stray Enter does nothing.
 */
export default function ConfirmDialog(props: DialogProps<FormQuestion>) {
  const t = useT();
  return (
    <QuestionShell
      {...props}
      kind="confirm"
      actions={
        <>
          {/* Cancel labelled as itself, not only behind × and Escape: "not now" differs from "no". */}
          <AnswerButton answer={{ action: 'cancel' }} />
          <AnswerButton answer={{ action: 'decline' }} />
          <AnswerButton answer={{ action: 'accept', content: {} }} look={acceptLook(props.question)}>
            {answerLabel(props.question, t, 'confirm')}
          </AnswerButton>
        </>
      }
    />
  );
}
