import { useEffect, useRef, useState } from 'react';
import type { UrlQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import AnswerButton from './AnswerButton';
import DeliberateButton from './DeliberateButton';
import OpenFailedBanner from './OpenFailedBanner';
import QuestionShell from './QuestionShell';
import { answerLabel } from './round-labels';
import UrlDisplay from './UrlDisplay';
import type { DialogProps, UrlDialogExtras } from './dialog-props';
import { useUrlDialogLink } from './use-open-link';

/**
 * A URL-mode question. Before anything happens the full link is shown with
 * its warnings; "Open in browser" is the consent (the host opens the system
 * browser). Then the dialog waits: "I'm done, continue" answers accept (the
 * host retries the call), Cancel cancels. A blocked link offers only Decline
 * and Cancel. Nothing about the link is ever fetched.
 */
export default function UrlConsentDialog(props: DialogProps<UrlQuestion> & UrlDialogExtras) {
  const { question, sending } = props;
  const t = useT();
  const { phase, openError, waitingRef, open, openedElsewhere } = useUrlDialogLink(props);
  // A look-alike link opens only through a second, deliberate step, never the primary button.
  const [armed, setArmed] = useState(false);
  // "Open anyway…" vanishes when pressed: focus goes to the warning that takes its place, not to the page.
  const stopRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (armed) stopRef.current?.focus();
  }, [armed]);
  const { url } = question;
  const lookalike = url.lookalike === true && !url.blocked;
  // A plain-http link is refused, but it is a real address the user may
  // want to use elsewhere: it keeps Copy link. javascript:, data: and
  // unparseable links never do.
  const copyable = !url.blocked || url.warnings.every((w) => w.code !== 'blocked-scheme' && w.code !== 'unparseable');

  return (
    <QuestionShell
      {...props}
      kind="url"
      actions={
        phase === 'waiting' ? (
          <>
            <AnswerButton answer={{ action: 'cancel' }} />
            {/* A user who landed on a page they distrust must be able to say no, not only cancel. */}
            <AnswerButton answer={{ action: 'decline' }} />
            <AnswerButton answer={{ action: 'accept' }} look="primary">
              {answerLabel(question, t, 'url')}
            </AnswerButton>
          </>
        ) : (
          <>
            <AnswerButton answer={{ action: 'cancel' }} />
            {/* Before a look-alike link is opened, saying no is the primary way. */}
            <AnswerButton answer={{ action: 'decline' }} look={lookalike ? 'primary' : 'plain'} />
            {lookalike && !armed && (
              <DeliberateButton className="button" busy={sending} onActivate={() => setArmed(true)}>
                {t('action.openLookalike')}
              </DeliberateButton>
            )}
            {/* A slot of its own: after "Open anyway…" it appears anew, so it arms anew. */}
            {!url.blocked && (!lookalike || armed) && (
              <DeliberateButton
                className={lookalike ? 'button button-danger' : 'button button-primary'}
                busy={sending || phase === 'opening'}
                onActivate={() => void open()}
              >
                {t(lookalike ? 'action.openLookalikeConfirm' : 'action.open')}
              </DeliberateButton>
            )}
          </>
        )
      }
    >
      <UrlDisplay analysis={url} allowCopy={copyable} />
      {phase === 'waiting' ? (
        <p ref={waitingRef} tabIndex={-1} className="banner banner-info" data-testid="url-waiting">
          {t('url.waiting')}
        </p>
      ) : url.blocked ? (
        <p className="banner banner-danger">{t(copyable ? 'url.blockedCopy' : 'url.blocked')}</p>
      ) : (
        <p className="url-consent-note">
          <strong>{t('url.nothingLoaded')}</strong> {t(lookalike ? 'url.consentLookalike' : 'url.consent')}
        </p>
      )}
      {lookalike && armed && phase !== 'waiting' && (
        <p ref={stopRef} tabIndex={-1} className="banner banner-danger" data-testid="url-lookalike-stop">
          {t('url.lookalikeStop')}
        </p>
      )}
      {openError !== null && phase === 'consent' && (
        // Never claim the link is open when the opener failed: say so, and
        // leave Copy link (above) and "I opened it myself" as ways on.
        <OpenFailedBanner reason={openError} onOpenedElsewhere={openedElsewhere} />
      )}
    </QuestionShell>
  );
}
