// Applies language and theme to the document: <html lang>, <html data-theme>
// (absent = follow the system via prefers-color-scheme) and the title.
import { useEffect, useState } from 'react';
import type { Settings } from '../../../shared/host-api/contract';
import { resolveLanguage, type Language } from '../i18n/translate';

/** The UI language for the settings, following the system's preference live when set to "system". */
export function useUiLanguage(setting: Settings['language'] | undefined): Language {
  // Re-render when the system language changes; resolveLanguage reads it afresh.
  const [, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((n) => n + 1);
    window.addEventListener('languagechange', bump);
    return () => window.removeEventListener('languagechange', bump);
  }, []);
  return resolveLanguage(setting ?? 'system');
}

/** Sets <html lang> and data-theme. */
export function useDocumentSettings(language: Language, theme: Settings['theme'] | undefined): void {
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [theme]);
}
