import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { createTranslate, plural, resolveLanguage, systemLanguage } from './translate';

describe('dictionaries', () => {
  it('German covers exactly the English keys, with the same placeholders', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(holes(de[key]), key).toEqual(holes(en[key]));
      expect(de[key].trim(), key).not.toBe('');
    }
  });
});

describe('createTranslate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    const t = createTranslate('en');
    expect(t('dialog.title.form', { server: 'github' })).toBe('github asks for information');
    expect(t('dialog.title.form')).toBe('{server} asks for information');
  });

  it('speaks German', () => {
    expect(createTranslate('de')('action.decline')).toBe('Ablehnen');
    // The menu and the Tasks view speak German too, not the English word.
    expect(createTranslate('de')('nav.tasks')).toBe('Aufgaben');
    expect(createTranslate('de')('tasks.title')).toBe('Aufgaben');
  });

  it('picks plural forms', () => {
    const t = createTranslate('en');
    expect(plural(t, 'queue.waiting', 1)).toBe('1 more question waiting');
    expect(plural(t, 'queue.waiting', 3)).toBe('3 more questions waiting');
    expect(plural(createTranslate('de'), 'queue.waiting', 2)).toBe('2 weitere Fragen warten');
  });
});

describe('language choice', () => {
  it('follows the first supported system language', () => {
    expect(systemLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(systemLanguage(['fr-FR', 'de-DE'])).toBe('de');
    expect(systemLanguage(['en-GB', 'de'])).toBe('en');
    expect(systemLanguage(['fr'])).toBe('en');
    expect(systemLanguage([])).toBe('en');
  });

  it('a fixed setting wins over the system', () => {
    expect(resolveLanguage('en', ['de-DE'])).toBe('en');
    expect(resolveLanguage('de', ['en-US'])).toBe('de');
    expect(resolveLanguage('system', ['de-CH'])).toBe('de');
  });
});
