// XML text escaping for the JUnit report. Server output lands in it
// verbatim (result texts, error messages), so anything XML 1.0 cannot carry
// must go: control characters and lone surrogates become U+FFFD.

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// Three alternatives: a character outside those ranges, a high surrogate with no low one after it,
// and a low surrogate with no high one before it.
const NOT_XML_CHAR = new RegExp(
  [
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.source,
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.source,
    /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.source,
  ].join('|'),
  'g',
);

/** Escape text for element content or a double-quoted attribute. */
export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Escape for an attribute: also keep line breaks and tabs, which attribute normalisation would turn into spaces. */
export function xmlAttr(text: string): string {
  return xmlEscape(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
