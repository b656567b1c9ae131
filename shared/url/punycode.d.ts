// Types for the npm `punycode` package imported by its file path. The path is
// used on purpose: the bare name 'punycode' resolves to Node's deprecated
// builtin in Node, and that must not leak into platform-free shared/ code.
declare module 'punycode/punycode.js' {
  const punycode: {
    /** Converts xn-- labels of a domain to Unicode; other labels pass through. */
    toUnicode(domain: string): string;
    /** Converts non-ASCII labels of a domain to xn-- form. */
    toASCII(domain: string): string;
    /** Decodes one label's Punycode (without "xn--"); throws a RangeError on invalid input. */
    decode(input: string): string;
    /** Encodes one label as Punycode (without "xn--"). */
    encode(input: string): string;
  };
  export default punycode;
}
