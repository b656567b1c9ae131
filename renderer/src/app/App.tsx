import { useEffect } from 'react';
import QuestionLayer from '../dialogs/QuestionLayer';
import { ArmDelayContext, DEFAULT_ARM_DELAY_MS } from '../dialogs/dialog-timing';
import { I18nProvider } from '../i18n/i18n-context';
import { createTranslate } from '../i18n/translate';
import { useStore } from '../state/use-store';
import SettingsPanel from './SettingsPanel';
import type { RendererStores } from './stores';
import { useDocumentSettings, useUiLanguage } from './use-document-settings';

/** Props: the started stores; `armDelayMs` shortens the answer-button delay (tests, harness). */
export interface AppProps {
  stores: RendererStores;
  armDelayMs?: number;
  autoDismissNotesMs?: number;
}

/** The renderer: an idle main view with settings, and question dialogs over it (the rest inert meanwhile). */
export default function App({ stores, armDelayMs = DEFAULT_ARM_DELAY_MS, autoDismissNotesMs }: AppProps) {
  const { settings } = useStore(stores.settings);
  const queue = useStore(stores.queue);
  const language = useUiLanguage(settings?.language);
  useDocumentSettings(language, settings?.theme);
  const t = createTranslate(language);
  const count = queue.questions.length;

  useEffect(() => {
    document.title = count > 0 ? `${t('app.title')} (${count})` : t('app.title');
  }, [count, t]);

  return (
    <I18nProvider language={language}>
      <ArmDelayContext.Provider value={armDelayMs}>
        <div className="app" inert={count > 0}>
          <header className="app-header">
            <h1 className="app-title">{t('app.title')}</h1>
          </header>
          <main className="app-main">
            {queue.loadError ? (
              <p className="banner banner-danger" role="alert">
                {t('app.hostError', { error: queue.loadError })}
              </p>
            ) : count > 0 ? null : (
              <div className="idle">
                <p className="idle-title">{t('app.idle')}</p>
                <p className="idle-hint">{t('app.idleHint')}</p>
              </div>
            )}
            <SettingsPanel settings={settings} onChange={(patch) => void stores.settings.update(patch)} />
          </main>
        </div>
        <QuestionLayer queue={stores.queue} directory={stores.directory} autoDismissNotesMs={autoDismissNotesMs} />
      </ArmDelayContext.Provider>
    </I18nProvider>
  );
}
