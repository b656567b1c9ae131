import { createTranslate, resolveLanguage } from '../i18n/translate';

/** Shown when no HostApi transport exists in this window. */
export default function HostUnavailable({ error }: { error: string }) {
  const t = createTranslate(resolveLanguage('system'));
  return (
    <main className="app-main">
      <p className="banner banner-danger" role="alert">
        {t('app.hostError', { error })}
      </p>
    </main>
  );
}
