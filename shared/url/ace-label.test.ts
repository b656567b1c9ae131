// Punycode validity decided by the project itself, so a link's verdict does
// not depend on which runtime's URL parser saw it (Node 24 accepts labels
// Node 20 refuses).
import { describe, expect, it } from 'vitest';
import { aceLabelProblem } from './ace-label';

describe('aceLabelProblem', () => {
  it.each([
    ['xn--bcher-kva', 'bücher'],
    ['xn--mnchen-3ya', 'münchen'],
    ['XN--MNCHEN-3YA', 'münchen, in capitals (ASCII case does not matter in a domain)'],
    ['xn--pple-43d', 'аpple with a Cyrillic а (a lookalike, but valid Punycode: flagged elsewhere)'],
    ['xn--80ak6aa92e', 'аррӏе, all Cyrillic'],
    ['xn--r8jz45g', '例え'],
    ['xn--zca', 'ß'],
    ['xn--nxa', 'β'],
    ['xn--ls8h', 'an emoji'],
    ['xn--9ca', 'é'],
  ])('accepts %j (%s)', (label) => {
    expect(aceLabelProblem(label)).toBeNull();
  });

  it.each([
    ['xn--zz', 'does not decode'],
    ['xn--zzzzzz', 'does not decode'],
    ['xn--ab--c', 'does not decode'],
    ['xn---', 'does not decode'],
    ['xn--', 'decodes to plain ASCII'],
    ['xn--abc-', 'decodes to plain ASCII'],
    ['xn--a', 'decodes to an invisible or unassigned character'], // U+0080, a control
    ['xn--ssa', 'decodes to a label that starts with a combining mark'], // U+0308 alone
    ['xn--a-ecp', 'decodes to a character that is written differently in a domain'], // "a⒈": IDNA reads ⒈ as "1."
    ['xn--ab-s13a', 'decodes to a character that is written differently in a domain'], // "ab。", a dot to IDNA
  ])('refuses %j: %s', (label, problem) => {
    expect(aceLabelProblem(label)).toBe(problem);
  });

  it('refuses a label that decodes but does not encode back to itself', () => {
    // Decoders read this one as a code point past U+10FFFF wrapped round; no encoder writes it.
    expect(aceLabelProblem('xn--kz9bjt')).toBe('does not encode back to itself');
    expect(aceLabelProblem('xn--m49bfq')).toBe('does not encode back to itself');
  });

  it('refuses capitals and text that is not in composed form', () => {
    expect(aceLabelProblem('xn--mnchen-psa')).toBe('decodes to a capital letter'); // mÜnchen
    expect(aceLabelProblem('xn--bucher-xyd')).toMatch(/written differently/); // "bu" + U+0308, not "bü"
    expect(aceLabelProblem('xn--ab-m1t')).toBe('decodes to an invisible or unassigned character'); // a, ZWJ, b
  });

  it('leaves labels without the xn-- prefix alone', () => {
    expect(aceLabelProblem('example')).toBeNull();
    expect(aceLabelProblem('xn-zz')).toBeNull();
  });
});
