// Splits one line of a test script into words, keeping where each word and
// each quoted part began, so every later error can name line and column.
// Pure: no I/O, no Node APIs. The syntax is the seed's (mcp-tester):
//   bare words, "double quoted" (JSON string escapes), 'single quoted'
//   (literal, like a shell), and JSON spans `{...}` / `[...]` that may
//   contain spaces; parts glue together, as in service:"auth-service".

import { jsonErrorOffset } from './json-error-offset';

/** One piece of a word, as written. */
export interface WordPart {
  kind: 'bare' | 'double' | 'single' | 'json';
  /** The text after unquoting (a JSON span is kept as written). */
  text: string;
  /** 1-based column where the part starts (the quote, for quoted parts). */
  col: number;
}

/** One whitespace-separated word of a line. */
export interface Word {
  /** All parts joined, quotes removed. */
  text: string;
  parts: WordPart[];
  line: number;
  /** 1-based column of the word's first character. */
  col: number;
  /** 1-based column just past the word's last character. */
  end: number;
}

/** A syntax problem at a position (the parser adds the file name). */
export class LexError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(message);
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Split `text` (one line, without its newline) into words. */
export function lexLine(text: string, line: number): Word[] {
  const words: Word[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ' || text[i] === '\t') {
      i += 1;
      continue;
    }
    const start = i;
    const parts: WordPart[] = [];
    while (i < text.length && text[i] !== ' ' && text[i] !== '\t') {
      const ch = text[i]!;
      if (ch === '"') {
        const { value, end } = readDouble(text, i, line);
        parts.push({ kind: 'double', text: value, col: i + 1 });
        i = end;
      } else if (ch === "'") {
        const close = text.indexOf("'", i + 1);
        if (close < 0) throw new LexError(`unclosed ' quote (opened at column ${i + 1})`, line, i + 1);
        parts.push({ kind: 'single', text: text.slice(i + 1, close), col: i + 1 });
        i = close + 1;
      } else if ((ch === '{' || ch === '[') && (parts.length === 0 || endsWithColon(parts))) {
        // A JSON span only where a value may start: at a word's start or after `key:`.
        const end = jsonSpanEnd(text, i, line);
        parts.push({ kind: 'json', text: text.slice(i, end), col: i + 1 });
        i = end;
      } else {
        let j = i;
        while (j < text.length && !' \t"\''.includes(text[j]!)) {
          j += 1;
          if (text[j - 1] === ':' && (text[j] === '{' || text[j] === '[')) break;
        }
        parts.push({ kind: 'bare', text: text.slice(i, j), col: i + 1 });
        i = j;
      }
    }
    words.push({ text: parts.map((p) => p.text).join(''), parts, line, col: start + 1, end: i + 1 });
  }
  return words;
}

function endsWithColon(parts: WordPart[]): boolean {
  const last = parts[parts.length - 1]!;
  return last.kind === 'bare' && last.text.endsWith(':');
}

function readDouble(text: string, open: number, line: number): { value: string; end: number } {
  let value = '';
  let i = open + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      if (next !== undefined && ESCAPES[next] !== undefined) {
        value += ESCAPES[next];
        i += 2;
        continue;
      }
      throw new LexError(`bad escape \\${next ?? ''} in a "double quoted" string`, line, i + 1);
    }
    value += ch;
    i += 1;
  }
  throw new LexError(`unclosed " quote (opened at column ${open + 1})`, line, open + 1);
}

/** End (exclusive) of the balanced JSON span starting at `open`; strings inside are skipped. */
function jsonSpanEnd(text: string, open: number, line: number): number {
  const stack: string[] = [];
  let i = open;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      i = readDouble(text, i, line).end;
      continue;
    }
    if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) throw new LexError(`unbalanced ${ch} in JSON`, line, i + 1);
      if (stack.length === 0) return i + 1;
    }
    i += 1;
  }
  throw new LexError(`unclosed ${text[open]} (JSON opened at column ${open + 1})`, line, open + 1);
}

/** Parse JSON written in a word part, turning a parse error into a LexError at the right column. */
export function parseJsonPart(part: WordPart, line: number, what: string): unknown {
  // Double-quoted text is already unquoted: it means a JSON string.
  if (part.kind === 'double') return part.text;
  try {
    return JSON.parse(part.text);
  } catch (e) {
    const message = (e as Error).message;
    const found = jsonErrorOffset(part.text);
    const offset = found >= 0 ? found : 0;
    // Single-quoted text is literal, so a position in it maps 1:1 to a column after the quote.
    const col = part.col + (part.kind === 'single' ? 1 : 0) + offset;
    const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/s, '');
    throw new LexError(`${what} is not valid JSON: ${reason}`, line, col);
  }
}
