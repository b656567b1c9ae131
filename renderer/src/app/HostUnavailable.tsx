import { createTranslate, resolveLanguage } from '../i18n/translate';

/** Shown when no HostApi transport exists in this window; `missingToken`: the page came without its access token. */
export default function HostUnavailable({ error, missingToken }: { error: string; missingToken?: boolean }) {
  const t = createTranslate(resolveLanguage('system'));
  if (missingToken)
    // Plain words for what happened and what to do: the transport's message means nothing here.
    return (
      <main className="app-main">
        <h1 className="app-title">{t('app.title')}</h1>
        <div className="banner banner-danger" role="alert">
          <p>{t('app.noToken')}</p>
          <p>{t('app.noTokenWhatToDo')}</p>
        </div>
      </main>
    );
  return (
    <main className="app-main">
      <p className="banner banner-danger" role="alert">
        {t('app.hostError', { error })}
      </p>
    </main>
  );
}
