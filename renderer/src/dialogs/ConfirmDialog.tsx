import { useId } from 'react';
import type { FormQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';
import DialogFooter from './DialogFooter';
import DialogFrame from './DialogFrame';
import DialogHeader from './DialogHeader';
import MessageText from './MessageText';
import type { DialogProps } from './dialog-props';

/**
 * A form question with no fields: the message, Accept and Decline; Escape or
 * the close button cancel. Focus starts on the dialog, never on Accept, so a
 * stray Enter does nothing.
 */
export default function ConfirmDialog({
  question,
  colour,
  waiting,
  sending,
  sendError,
  onAnswer,
  onBack,
}: DialogProps<FormQuestion>) {
  const t = useT();
  const titleId = useId();
  const messageId = useId();
  return (
    <DialogFrame
      questionId={question.id}
      kind="confirm"
      labelledBy={titleId}
      describedBy={messageId}
      onCancel={() => onAnswer({ action: 'cancel' })}
    >
      <DialogHeader
        origin={question.origin}
        title={t('dialog.title.confirm', { server: question.origin.server })}
        titleId={titleId}
        colour={colour}
        waiting={waiting}
        busy={sending}
        onClose={() => onAnswer({ action: 'cancel' })}
      />
      <div className="dialog-body">
        <MessageText id={messageId} message={question.message} />
      </div>
      <DialogFooter sending={sending} sendError={sendError} onBack={onBack}>
        <DeliberateButton className="button" busy={sending} onActivate={() => onAnswer({ action: 'decline' })}>
          {t('action.decline')}
        </DeliberateButton>
        <DeliberateButton
          className="button button-primary"
          busy={sending}
          onActivate={() => onAnswer({ action: 'accept', content: {} })}
        >
          {t('action.accept')}
        </DeliberateButton>
      </DialogFooter>
    </DialogFrame>
  );
}
