import type { FormQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import AnswerButton, { acceptLook } from './AnswerButton';
import QuestionShell from './QuestionShell';
import type { DialogProps } from './dialog-props';

/**
 * A form question with no fields: the message, Accept and Decline; Escape or
 * the close button cancel. Focus starts on the dialog, never on Accept, so a
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
          <AnswerButton answer={{ action: 'decline' }} />
          <AnswerButton answer={{ action: 'accept', content: {} }} look={acceptLook(props.question)}>
            {t('action.accept')}
          </AnswerButton>
        </>
      }
    />
  );
}
