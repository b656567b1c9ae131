import { describe, expect, it } from 'vitest';
import { FIELD_MAX, terminalText } from './terminal-text';

// The attack seen in the wild: clear the screen, retitle the terminal, flip the rest of the line.
const HOSTILE = '\x1b[2J\x1b]0;pwned\x07 report\u202Eexe.txt';

describe('terminalText', () => {
  it('shows the screen-clearing, retitling, reversing string escaped, nothing of it raw', () => {
    expect(terminalText(HOSTILE)).toBe('\\x1b[2J\\x1b]0;pwned\\x07 report\\u202eexe.txt');
  });

  it.each([
    ['C0 controls', '\x00\x01\x07\x08\x0b\x0c\x1b\x1f', '\\x00\\x01\\x07\\x08\\x0b\\x0c\\x1b\\x1f'],
    ['line breaks and tab in a one-line field', 'a\nb\r\nc\td\re', 'a\\nb\\r\\nc\\td\\re'],
    ['DEL', 'a\x7fb', 'a\\u007fb'],
    [
      'C1 controls (CSI, OSC, NEL, ST)',
      '\x80\x85\x9b2J\x9d0;t\x9c\x9f',
      '\\u0080\\u0085\\u009b2J\\u009d0;t\\u009c\\u009f',
    ],
    ['bidi marks', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    ['bidi embeddings and overrides', '\u202a\u202b\u202c\u202d\u202e', '\\u202a\\u202b\\u202c\\u202d\\u202e'],
    ['bidi isolates', '\u2066\u2067\u2068\u2069', '\\u2066\\u2067\\u2068\\u2069'],
    ['zero-width characters', 'a\u200bb\u200cc\u200dd', 'a\\u200bb\\u200cc\\u200dd'],
    ['word joiner and invisible operators', '\u2060\u2061\u2062\u2063\u2064', '\\u2060\\u2061\\u2062\\u2063\\u2064'],
    ['BOM and Mongolian vowel separator', '\ufeffx\u180e', '\\ufeffx\\u180e'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['soft hyphen and other Cf', 'a\u00adb\u0600c\u06ddd', 'a\\u00adb\\u0600c\\u06ddd'],
    ['tag characters (astral Cf, as UTF-16 escapes)', 'hi\u{e0041}\u{e007f}', 'hi\\udb40\\udc41\\udb40\\udc7f'],
    ['lone surrogates', 'a\ud800b\udc00c', 'a\\ud800b\\udc00c'],
  ])('%s', (_name, input, shown) => {
    expect(terminalText(input)).toBe(shown);
  });

  it('leaves ordinary text alone: accents, scripts, emoji, quotes, backslashes', () => {
    const plain = 'Grüße, 東京, مرحبا, 👩‍💻? no: 👍 "quoted" \\ back\\slash ½ €';
    const withoutZwj = plain.replace('\u200d', '');
    expect(terminalText(withoutZwj)).toBe(withoutZwj);
    expect(terminalText('100% done, next: 2/3')).toBe('100% done, next: 2/3');
  });

  it('multiline keeps line breaks and tabs, and escapes everything else', () => {
    expect(terminalText('one\ntwo\r\nthree\tcol', { multiline: true })).toBe('one\ntwo\r\nthree\tcol');
    expect(terminalText(`line\n${HOSTILE}\rover`, { multiline: true })).toBe(
      'line\n\\x1b[2J\\x1b]0;pwned\\x07 report\\u202eexe.txt\\rover',
    );
  });

  it('cuts a long value with a marker saying how many characters were left out', () => {
    expect(terminalText('x'.repeat(FIELD_MAX + 10))).toBe(`${'x'.repeat(FIELD_MAX)}… (10 more characters)`);
    expect(terminalText('abcdef', { max: 4 })).toBe('abcd… (2 more characters)');
    expect(terminalText('abcd', { max: 4 })).toBe('abcd');
    expect(terminalText('y'.repeat(10_000), { max: Infinity })).toBe('y'.repeat(10_000));
  });

  it('cuts by code points, never inside a surrogate pair or an escape, and counts what was left out', () => {
    expect(terminalText('😀😀😀', { max: 2 })).toBe('😀😀… (1 more characters)');
    expect(terminalText('ab\x1b[2J', { max: 3 })).toBe('ab\\x1b… (3 more characters)');
    // A lone surrogate after the cut counts as one character.
    expect(terminalText('ab\ud800c', { max: 2 })).toBe('ab… (2 more characters)');
  });

  it('is a fixed point: escaped text escaped again is unchanged (no double escaping)', () => {
    const samples = [HOSTILE, 'a\nb', '\u{e0041}\ud800', '\x85\x7f\u2028', 'plain'];
    for (const s of samples) {
      const once = terminalText(s);
      expect(terminalText(once)).toBe(once);
      expect(terminalText(once, { multiline: true, max: Infinity })).toBe(once);
      const lines = terminalText(s, { multiline: true });
      expect(terminalText(lines, { multiline: true })).toBe(lines);
    }
  });

  it('keeps a JSON text valid and its value the same (JSON.stringify leaves U+202E, DEL and C1 raw)', () => {
    const value = { message: HOSTILE, more: ['\x85\x9b\x7f', '\u2028\u2066\ufeff', 'ok \\ "q"', '\ud800'] };
    const json = JSON.stringify(value);
    expect(json).toContain('\u202e');
    const shown = terminalText(json, { multiline: true, max: Infinity });
    expect(shown).not.toMatch(/[\u007f-\u009f\u202e\u2028\u2066\ufeff]/);
    expect(JSON.parse(shown)).toEqual(value);
    const pretty = JSON.stringify(value, null, 2);
    expect(JSON.parse(terminalText(pretty, { multiline: true, max: Infinity }))).toEqual(value);
  });
});
