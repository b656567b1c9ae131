import { useT } from '../i18n/i18n-context';

/**
 * The link was not opened: say so with the opener's reason, and offer "I opened it myself" as the way on. A dialog
 * never claims the browser shows something it does not.
 */
export default function OpenFailedBanner({
  reason,
  onOpenedElsewhere,
}: {
  reason: string;
  onOpenedElsewhere: () => void;
}) {
  const t = useT();
  return (
    <div className="banner banner-danger" role="alert" data-testid="url-open-failed">
      <p>{t('url.openFailed', { reason })}</p>
      <button type="button" className="button button-small" onClick={onOpenedElsewhere}>
        {t('action.openedMyself')}
      </button>
    </div>
  );
}
