// Pure lookup and interpolation, kept apart from React so the queue, the form
// error messages and tests can use it directly.
import { de } from './de';
import { en, type Dictionary, type MessageKey } from './en';

/** A language the UI is written in. */
export type Language = 'en' | 'de';
/** The language setting: a fixed language, or follow the system. */
export type LanguageSetting = 'system' | Language;
/** Translates a key, filling `{name}` placeholders from `vars`. */
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

const dictionaries: Record<Language, Dictionary> = { en, de };

/** The system language from the browser's preference list: German if it comes first among ours, else English. */
export function systemLanguage(preferred: readonly string[] = globalThis.navigator?.languages ?? []): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return 'en';
}

/** The language to show for a setting. */
export function resolveLanguage(setting: LanguageSetting, preferred?: readonly string[]): Language {
  return setting === 'system' ? systemLanguage(preferred) : setting;
}

/** A translate function for one language; unknown keys fall back to English, then to the key. */
export function createTranslate(language: Language): Translate {
  const dict = dictionaries[language];
  return (key, vars) => {
    const text = dict[key] ?? en[key] ?? key;
    if (!vars) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}

/** Picks the `.one` or `.other` form of a plural pair. */
export function plural(
  t: Translate,
  base: 'queue.waiting' | 'queue.waitingShort' | 'form.invalid',
  count: number,
): string {
  return t(`${base}.${count === 1 ? 'one' : 'other'}` as MessageKey, { count });
}

export { dictionaries };
export type { MessageKey };
