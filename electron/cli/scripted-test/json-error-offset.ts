// Where JSON text first goes wrong. V8's JSON.parse names a position for
// most errors but not all (`{"a": tru}` says only "Unexpected token"), and a
// script error must point at a column, so this small syntax-only scanner
// finds the offset itself. It never builds values: JSON.parse stays the
// parser; this only answers "where".

/** Offset of the first syntax error in `text`, or -1 when it is valid JSON. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const fail = (): never => {
    throw new Offset(i);
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i += 1;
    }
  };
  const string = () => {
    i += 1;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '"') {
        i += 1;
        return;
      }
      if (ch < ' ') fail();
      if (ch === '\\') {
        const next = text[i + 1];
        i += 1; // V8 points at the character after the backslash
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) fail();
        i += 1;
        continue;
      }
      i += 1;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) {
      // A lone minus: V8 points past it, at the missing digits.
      if (text[i] === '-') i += 1;
      fail();
    }
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i += 1;
      ws();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i += 1;
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return;
        }
        fail();
      }
    }
    if (ch === '[') {
      i += 1;
      ws();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === ']') {
          i += 1;
          return;
        }
        fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (e) {
    if (e instanceof Offset) return e.offset;
    throw e;
  }
}

class Offset {
  constructor(readonly offset: number) {}
}
