import { useId, useState } from 'react';
import type { UrlQuestion } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';
import DialogFooter from './DialogFooter';
import DialogFrame from './DialogFrame';
import DialogHeader from './DialogHeader';
import MessageText from './MessageText';
import UrlDisplay from './UrlDisplay';
import type { DialogProps, UrlDialogExtras } from './dialog-props';
import { useOpenLink } from './use-open-link';

/**
 * A URL-mode question. Before anything happens the full link is shown with
 * its warnings; "Open in browser" is the consent (the host opens the system
 * browser). Then the dialog waits: "I'm done, continue" answers accept (the
 * host retries the call), Cancel cancels. A blocked link offers only Decline
 * and Cancel. Nothing about the link is ever fetched.
 */
export default function UrlConsentDialog({
  question,
  colour,
  waiting,
  sending,
  sendError,
  onAnswer,
  onOpenUrl,
  onOpenedElsewhere,
  opened,
  onBack,
}: DialogProps<UrlQuestion> & UrlDialogExtras) {
  const t = useT();
  const titleId = useId();
  const messageId = useId();
  const { phase, openError, waitingRef, open, openedElsewhere } = useOpenLink(
    onOpenUrl,
    opened === true,
    onOpenedElsewhere,
  );
  // A look-alike link opens only through a second, deliberate step, never the primary button.
  const [armed, setArmed] = useState(false);
  const { url } = question;
  const lookalike = url.lookalike === true && !url.blocked;
  // A plain-http link is refused, but it is a real address the user may
  // want to use elsewhere: it keeps Copy link. javascript:, data: and
  // unparseable links never do.
  const copyable = !url.blocked || url.warnings.every((w) => w.code !== 'blocked-scheme' && w.code !== 'unparseable');

  const cancel = () => onAnswer({ action: 'cancel' });

  return (
    <DialogFrame questionId={question.id} kind="url" labelledBy={titleId} describedBy={messageId} onCancel={cancel}>
      <DialogHeader
        origin={question.origin}
        title={t('dialog.title.url', { server: question.origin.server })}
        titleId={titleId}
        colour={colour}
        waiting={waiting}
        busy={sending}
        onClose={cancel}
      />
      <div className="dialog-body">
        <MessageText id={messageId} message={question.message} />
        <UrlDisplay analysis={url} allowCopy={copyable} />
        {phase === 'waiting' ? (
          <p ref={waitingRef} tabIndex={-1} className="banner banner-info" data-testid="url-waiting">
            {t('url.waiting')}
          </p>
        ) : url.blocked ? (
          <p className="banner banner-danger">{t(copyable ? 'url.blockedCopy' : 'url.blocked')}</p>
        ) : (
          <p className="url-consent-note">
            <strong>{t('url.nothingLoaded')}</strong> {t('url.consent')}
          </p>
        )}
        {lookalike && armed && phase !== 'waiting' && (
          <p className="banner banner-danger" data-testid="url-lookalike-stop">
            {t('url.lookalikeStop')}
          </p>
        )}
        {openError !== null && phase === 'consent' && (
          // Never claim the link is open when the opener failed: say so, and
          // leave Copy link (above) and "I opened it myself" as ways on.
          <div className="banner banner-danger" role="alert" data-testid="url-open-failed">
            <p>{t('url.openFailed', { reason: openError })}</p>
            <button type="button" className="button button-small" onClick={openedElsewhere}>
              {t('action.openedMyself')}
            </button>
          </div>
        )}
      </div>
      <DialogFooter sending={sending} sendError={sendError} onBack={onBack}>
        {phase === 'waiting' ? (
          <>
            <DeliberateButton className="button" busy={sending} onActivate={cancel}>
              {t('action.cancel')}
            </DeliberateButton>
            {/* A user who landed on a page they distrust must be able to say no, not only cancel. */}
            <DeliberateButton className="button" busy={sending} onActivate={() => onAnswer({ action: 'decline' })}>
              {t('action.decline')}
            </DeliberateButton>
            <DeliberateButton
              className="button button-primary"
              busy={sending}
              onActivate={() => onAnswer({ action: 'accept' })}
            >
              {t('action.done')}
            </DeliberateButton>
          </>
        ) : (
          <>
            <DeliberateButton
              className={lookalike ? 'button button-primary' : 'button'}
              busy={sending}
              onActivate={() => onAnswer({ action: 'decline' })}
            >
              {t('action.decline')}
            </DeliberateButton>
            {lookalike && !armed && (
              <DeliberateButton className="button" busy={sending} onActivate={() => setArmed(true)}>
                {t('action.openLookalike')}
              </DeliberateButton>
            )}
            {lookalike && armed && (
              <DeliberateButton
                className="button button-danger"
                busy={sending || phase === 'opening'}
                onActivate={() => void open()}
              >
                {t('action.openLookalikeConfirm')}
              </DeliberateButton>
            )}
            {!url.blocked && !lookalike && (
              <DeliberateButton
                className="button button-primary"
                busy={sending || phase === 'opening'}
                onActivate={() => void open()}
              >
                {t('action.open')}
              </DeliberateButton>
            )}
          </>
        )}
      </DialogFooter>
    </DialogFrame>
  );
}
