// The React side of i18n: a provider holding the active language and a hook
// returning its translate function.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createTranslate, type Language, type Translate } from './translate';

interface I18nValue {
  language: Language;
  t: Translate;
}

const I18nContext = createContext<I18nValue>({ language: 'en', t: createTranslate('en') });

/** Makes `language` the UI language for everything below it. */
export function I18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  const value = useMemo(() => ({ language, t: createTranslate(language) }), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The translate function of the active language. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

/** The active UI language. */
export function useLanguage(): Language {
  return useContext(I18nContext).language;
}
