// Text that servers, authorization servers and files control, made safe to
// show in a terminal. A terminal obeys what it prints: ESC and CSI sequences
// clear the screen, retitle the window or rewrite earlier lines; C1 controls
// do the same on some terminals; a bidi override (U+202E) shows "exe.txt" as
// "txt.exe"; zero-width and other format characters hide text; a newline in
// a one-line field forges a line of the host's own. Every such character is
// shown as a visible escape instead (\x1b, \u202e), and a long value is cut
// with a marker saying how much was left out.
//
// The escapes are plain ASCII, so the result is a fixed point (escaping it
// again changes nothing), and the non-C0 escapes are JSON's own `\uXXXX`: a
// JSON text run through here still parses, to the same value (JSON.stringify
// escapes C0 itself but leaves U+202E, U+2028, DEL and the C1 controls raw).

/** Options for {@link terminalText}. */
export interface TerminalTextOptions {
  /**
   * Keep line breaks ("\n", "\r\n") and tabs: for a whole output of many
   * lines (a tool's text result, a JSON document). Default false: a one-line
   * field, where a line break is escaped like any other control.
   */
  multiline?: boolean;
  /** The most characters (code points) shown before the cut marker; default 500, Infinity for no cut. */
  max?: number;
}

/** The cut for a one-line field: long enough for any honest message, short enough to keep a line a line. */
export const FIELD_MAX = 500;

/** The cut for a whole line that quotes fields (an error, a log line). */
export const LINE_MAX = 2000;

/**
 * Controls (C0, DEL, C1), format characters (bidi marks and overrides,
 * zero-width characters, the BOM, U+061C, U+180E, tag characters: category
 * Cf), line and paragraph separators, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** The visible form of one unsafe code point: \n, \r, \t, \xHH for other C0, \uXXXX (UTF-16 units) for the rest. */
function escapeCodePoint(ch: string): string {
  const short = SHORT[ch];
  if (short) return short;
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return `\\x${hex(cp, 2)}`;
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${hex(ch.charCodeAt(i), 4)}`;
  return out;
}

/** The visible form of one unsafe code point at `offset` in `text`, keeping line breaks when `multiline`. */
function escapeAt(ch: string, offset: number, text: string, multiline: boolean): string {
  if (multiline && (ch === '\n' || ch === '\t' || (ch === '\r' && text[offset + 1] === '\n'))) return ch;
  return escapeCodePoint(ch);
}

/** Where to cut `text` so that at most `max` code points stay, never inside a surrogate pair. */
function cutIndex(text: string, max: number): number {
  let index = 0;
  for (let kept = 0; kept < max && index < text.length; kept++) index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  return index;
}

/** Code points, a lone surrogate counting as one (the string iterator's view). */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * `value` as a terminal may show it: every control, format character and
 * lone surrogate escaped visibly, line breaks too unless `multiline`, and cut
 * after `max` code points with "… (N more characters)".
 */
export function terminalText(value: string, options: TerminalTextOptions = {}): string {
  const multiline = options.multiline === true;
  const max = options.max ?? FIELD_MAX;
  let text = value;
  let marker = '';
  if (text.length > max) {
    const at = cutIndex(text, max);
    if (at < text.length) {
      marker = `… (${codePoints(text.slice(at))} more characters)`;
      text = text.slice(0, at);
    }
  }
  if (!UNSAFE.test(text)) return text + marker;
  return text.replace(UNSAFE_ALL, (ch: string, offset: number) => escapeAt(ch, offset, text, multiline)) + marker;
}
