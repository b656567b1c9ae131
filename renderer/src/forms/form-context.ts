// What every template and widget of the theme can read from RJSF's registry.
import type { Registry } from '@rjsf/utils';
import { createTranslate, type Language, type Translate } from '../i18n/translate';

/** The theme's formContext. */
export interface ThemeContext {
  /** The active language's translate function. */
  t: Translate;
  /** The active language (how dates are typed); English when absent. */
  language?: Language;
  /** Names of fields that look like they ask for a secret. */
  secretFields: ReadonlySet<string>;
}

const fallback = { t: createTranslate('en'), secretFields: new Set<string>(), language: 'en' as Language };

/** The theme context from a registry (English and no warnings when absent, e.g. in isolated widget tests). */
export function themeContext(registry: Pick<Registry, 'formContext'> | undefined): Required<ThemeContext> {
  const ctx = registry?.formContext as Partial<ThemeContext> | undefined;
  return {
    t: ctx?.t ?? fallback.t,
    secretFields: ctx?.secretFields ?? fallback.secretFields,
    language: ctx?.language ?? fallback.language,
  };
}
