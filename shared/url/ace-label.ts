// Whether an xn-- ("ACE") label of a host is real Punycode, decided here and
// not by the runtime's URL parser: parsers differ (Node 20 refuses
// "xn--zz.com", Node 24 accepts it), and a link's verdict must be the same
// in the main process, the renderer and every Node that runs the CLI.
// The rules are those of UTS #46 (section 4, "Validity Criteria") that can be
// checked without its data table: the label decodes, encodes back to itself,
// is not plain ASCII in disguise, and holds only characters that IDNA
// processing would keep as they are (a character it maps to another, such as
// a capital, a full-width letter or a ligature, never appears in a label
// ToASCII produced).
import punycode from 'punycode/punycode.js'; // the npm package: bare 'punycode' is Node's deprecated builtin

const ACE_PREFIX = 'xn--';

/** Why an xn-- label is not valid Punycode, or null when it is (or is no xn-- label at all). */
export function aceLabelProblem(label: string): string | null {
  if (label.slice(0, ACE_PREFIX.length).toLowerCase() !== ACE_PREFIX) return null;
  // ASCII case does not matter in a domain (the URL parser lowers it anyway).
  const encoded = label.slice(ACE_PREFIX.length).toLowerCase();
  let decoded: string;
  try {
    decoded = punycode.decode(encoded);
  } catch {
    return 'does not decode';
  }
  if (punycode.encode(decoded) !== encoded) return 'does not encode back to itself';
  if (!/[^\x00-\x7f]/.test(decoded)) return 'decodes to plain ASCII';
  // ASCII inside a decoded label: letters, digits and hyphens only.
  if (/[^a-z0-9-\u0080-\u{10ffff}]/u.test(decoded)) return 'decodes to a character not allowed in a domain';
  // Controls, invisible format characters (joiners included), spaces,
  // surrogates, private use and unassigned code points.
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}]/u.test(decoded)) return 'decodes to an invisible or unassigned character';
  // Characters IDNA maps to others: compatibility forms (full-width letters,
  // "⒈", ligatures), text not in composed form, the ideographic full stops it
  // reads as dots, and capitals (except Cherokee, whose case folding goes to
  // the capitals).
  if (decoded.normalize('NFKC') !== decoded || /[\u3002\uff61]/.test(decoded))
    return 'decodes to a character that is written differently in a domain';
  if (/(?!\p{Script=Cherokee})[\p{Lu}\p{Lt}]/u.test(decoded)) return 'decodes to a capital letter';
  if (/^\p{M}/u.test(decoded)) return 'decodes to a label that starts with a combining mark';
  return null;
}
