import type { Question } from '../../../shared/elicitation/types';
import ConfirmDialog from './ConfirmDialog';
import FormDialog from './FormDialog';
import PasskeyDialog from './PasskeyDialog';
import UrlConsentDialog from './UrlConsentDialog';
import type { DialogProps, UrlDialogExtras } from './dialog-props';

/** The kind of dialog a question needs. */
export function dialogKind(question: Question): 'form' | 'confirm' | 'url' {
  if (question.mode === 'url') return 'url';
  return Object.keys(question.requestedSchema.properties ?? {}).length === 0 ? 'confirm' : 'form';
}

/** Chooses the dialog for a question: URL consent, confirm-only (no fields) or a form. */
export default function QuestionDialog(props: DialogProps & UrlDialogExtras) {
  const { question } = props;
  // The host's own passkey step is a link too, but only its page confirms: a dialog of its own, with no accept.
  if (question.mode === 'url' && question.origin.passkeyStep) return <PasskeyDialog {...props} question={question} />;
  if (question.mode === 'url') return <UrlConsentDialog {...props} question={question} />;
  if (dialogKind(question) === 'confirm') return <ConfirmDialog {...props} question={question} />;
  return <FormDialog {...props} question={question} />;
}
