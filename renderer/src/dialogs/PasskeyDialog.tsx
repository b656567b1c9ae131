import type { UrlQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import AnswerButton from './AnswerButton';
import DeliberateButton from './DeliberateButton';
import OpenFailedBanner from './OpenFailedBanner';
import QuestionShell from './QuestionShell';
import UrlDisplay from './UrlDisplay';
import type { DialogProps, UrlDialogExtras } from './dialog-props';
import { useUrlDialogLink } from './use-open-link';

/**
 * The passkey step of an answer the person accepted (the host's own link, `origin.passkeyStep`): it opens
 * Countersign's confirmation page, where the passkey signs exactly that answer. Nothing here confirms: the page
 * does, and the dialog leaves by itself once it did. Cancel is always there; an accept never is.
 */
export default function PasskeyDialog(props: DialogProps<UrlQuestion> & UrlDialogExtras) {
  const { question, sending } = props;
  const t = useT();
  const { phase, openError, waitingRef, open, openedElsewhere } = useUrlDialogLink(props);
  const step = question.origin.passkeyStep;
  return (
    <QuestionShell
      {...props}
      kind="url"
      title={t('passkey.title')}
      actions={
        <>
          <AnswerButton answer={{ action: 'cancel' }} />
          {phase !== 'waiting' && (
            <DeliberateButton
              className="button button-primary"
              busy={sending || phase === 'opening'}
              onActivate={() => void open()}
            >
              {t('passkey.open')}
            </DeliberateButton>
          )}
        </>
      }
    >
      {step && (
        <p className="banner banner-info" data-testid="passkey-reason">
          {t('passkey.why', { reason: step.reason })}
        </p>
      )}
      <UrlDisplay analysis={question.url} allowCopy />
      {phase === 'waiting' ? (
        <p ref={waitingRef} tabIndex={-1} className="banner banner-info" data-testid="passkey-waiting">
          {t('passkey.waiting')}
        </p>
      ) : (
        <p className="url-consent-note">{t('passkey.consent')}</p>
      )}
      {openError !== null && phase === 'consent' && (
        <OpenFailedBanner reason={openError} onOpenedElsewhere={openedElsewhere} />
      )}
    </QuestionShell>
  );
}
