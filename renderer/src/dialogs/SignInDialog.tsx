import { useId } from 'react';
import type { SignInQuestion } from '../../../shared/auth/types';
import type { Answer } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import AnswerButton from './AnswerButton';
import DeliberateButton from './DeliberateButton';
import DialogShell from './DialogShell';
import { SignInOriginLines } from './OriginLines';
import UrlDisplay from './UrlDisplay';
import { useOpenLink } from './use-open-link';

/** Props of the sign-in dialog (the queue's usual ones, for a sign-in). */
export interface SignInDialogProps {
  question: SignInQuestion;
  colour: number;
  waiting: number;
  sending: boolean;
  sendError: string | null;
  /** Only Cancel goes this way: the consent is `onOpenUrl`. */
  onAnswer: (answer: Answer) => void;
  /** The human's consent: the host opens the sign-in page through its open-external gate. */
  onOpenUrl: () => Promise<{ opened: boolean; reason?: string }>;
}

/**
 * A server asks the human to sign in, before any browser opens: who asks and
 * for which call, the authorization server's host (emphasised, with the same
 * URL analysis as a URL question), the issuer, the full link and the scopes.
 * Open in browser is the consent; then the dialog waits for the browser,
 * with Cancel, and closes by itself when the sign-in comes back.
 */
export default function SignInDialog({ question, onOpenUrl, ...shared }: SignInDialogProps) {
  const t = useT();
  const consentId = useId();
  const { phase, openError, waitingRef, open } = useOpenLink(onOpenUrl, question.waiting === true);
  const { url } = question;
  // The core refuses look-alike authorization servers before it asks; should one arrive anyway, it cannot be opened.
  const openable = !url.blocked && url.lookalike !== true;

  return (
    <DialogShell
      {...shared}
      questionId={question.id}
      kind="sign-in"
      server={question.server}
      title={t('dialog.title.signIn', { server: question.server })}
      origin={<SignInOriginLines question={question} />}
      describedBy={consentId}
      actions={
        <>
          <AnswerButton answer={{ action: 'cancel' }} />
          {phase !== 'waiting' && openable && (
            <DeliberateButton
              className="button button-primary"
              busy={shared.sending || phase === 'opening'}
              onActivate={() => void open()}
            >
              {t('action.open')}
            </DeliberateButton>
          )}
        </>
      }
    >
      {question.stepUp && (
        <p className="banner banner-info" data-testid="sign-in-step-up">
          {t('signIn.stepUp')}
        </p>
      )}
      <UrlDisplay analysis={url} allowCopy={!url.blocked} siteLabel={t('signIn.site')} />
      <dl className="sign-in-facts">
        <dt>{t('signIn.issuer')}</dt>
        <dd className="mono" dir="ltr" data-testid="sign-in-issuer">
          {question.issuer}
        </dd>
        <dt>{t('signIn.scopes')}</dt>
        <dd data-testid="sign-in-scopes">
          {question.scopes.length > 0 ? (
            <ul className="sign-in-scopes">
              {question.scopes.map((s) => (
                <li key={s} className="mono" dir="ltr">
                  {s}
                </li>
              ))}
            </ul>
          ) : (
            t('signIn.noScopes')
          )}
        </dd>
      </dl>
      {phase === 'waiting' ? (
        <p ref={waitingRef} id={consentId} tabIndex={-1} className="banner banner-info" data-testid="sign-in-waiting">
          {t('signIn.waiting')}
        </p>
      ) : openable ? (
        <p id={consentId} className="url-consent-note">
          <strong>{t('url.nothingLoaded')}</strong> {t('signIn.consent')}
        </p>
      ) : (
        <p id={consentId} className="banner banner-danger">
          {t('signIn.blocked')}
        </p>
      )}
      {openError !== null && phase === 'consent' && (
        <p className="banner banner-danger" role="alert" data-testid="sign-in-open-failed">
          {t('signIn.openFailed', { reason: openError })}
        </p>
      )}
    </DialogShell>
  );
}
