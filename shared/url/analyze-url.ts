// What the host can learn about a URL-mode link WITHOUT touching the network
// (the spec forbids pre-fetching anything, even a favicon): the parsed parts,
// the domain to emphasise, and warnings for the usual ways a link lies.
// Parsing uses the WHATWG `URL` global, the same parser browsers use, so the
// host we show is the host the system browser will actually visit.

import punycode from 'punycode/punycode.js'; // the npm package: bare 'punycode' is Node's deprecated builtin
import { aceLabelProblem } from './ace-label';
// The Unicode confusables table (UTS #39 skeletons), maintained upstream rather than hand-picked here.
import unhomoglyph from 'unhomoglyph';
import type { UrlAnalysis, UrlWarning } from '../elicitation/types';

/** Longer links get a 'too-long' warning: they are hard to read in full and can push the real host out of view. */
export const MAX_URL_LENGTH = 2048;

// A small, hand-picked slice of the Public Suffix List: the multi-label
// suffixes most often seen in links. LIMITATION: without the full list, a
// domain under an unlisted multi-label suffix (e.g. "city.kawasaki.jp" or a
// hosting platform not named here) gets a registrable domain that is too
// short, e.g. "kawasaki.jp". It is used for emphasis only, never for trust.
const MULTI_LABEL_SUFFIXES = new Set([
  // country-code second levels
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'net.uk',
  'ltd.uk',
  'plc.uk',
  'sch.uk',
  'nhs.uk',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'id.au',
  'asn.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'ac.nz',
  'govt.nz',
  'geek.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'go.jp',
  'ad.jp',
  'ed.jp',
  'gr.jp',
  'lg.jp',
  'co.kr',
  'or.kr',
  'ne.kr',
  'go.kr',
  'ac.kr',
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'com.hk',
  'org.hk',
  'com.tw',
  'org.tw',
  'idv.tw',
  'com.sg',
  'edu.sg',
  'gov.sg',
  'com.my',
  'com.ph',
  'com.vn',
  'co.th',
  'in.th',
  'co.id',
  'or.id',
  'co.in',
  'net.in',
  'org.in',
  'gov.in',
  'ac.in',
  'firm.in',
  'gen.in',
  'com.br',
  'net.br',
  'org.br',
  'gov.br',
  'edu.br',
  'com.mx',
  'org.mx',
  'gob.mx',
  'com.ar',
  'gob.ar',
  'com.co',
  'com.pe',
  'com.uy',
  'com.ve',
  'cl.cl',
  'co.za',
  'org.za',
  'gov.za',
  'ac.za',
  'co.ke',
  'or.ke',
  'com.ng',
  'com.eg',
  'co.il',
  'org.il',
  'ac.il',
  'gov.il',
  'com.tr',
  'org.tr',
  'gov.tr',
  'com.sa',
  'com.pk',
  'com.ua',
  'org.ua',
  'gov.ua',
  'com.pl',
  'net.pl',
  'org.pl',
  'co.at',
  'or.at',
  'gv.at',
  'ac.at',
  'com.es',
  'org.es',
  'com.pt',
  'com.gr',
  'com.ru',
  'org.ru',
  'com.cy',
  // hosting platforms where every customer gets a subdomain (private PSL section)
  'github.io',
  'gitlab.io',
  'pages.dev',
  'workers.dev',
  'vercel.app',
  'netlify.app',
  'web.app',
  'firebaseapp.com',
  'herokuapp.com',
  'appspot.com',
  'blogspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  'onrender.com',
  'fly.dev',
  'glitch.me',
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'trycloudflare.com',
  'repl.co',
  'replit.app',
  'deno.dev',
  'surge.sh',
  'readthedocs.io',
  'codeberg.page',
  'bitbucket.io',
  's3.amazonaws.com',
  'azurestaticapps.net',
]);

// Scripts told apart for the mixed-script check; letters of any other script count as "other".
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Bengali',
  'Tamil',
  'Thai',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
  'Cherokee',
  'Ethiopic',
].map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u') }));

// Script mixes that are normal writing, not spoofing (UTS #39 "highly restrictive").
const ALLOWED_MIXES = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']), // Japanese
  new Set(['Latin', 'Han', 'Bopomofo']), // Chinese
  new Set(['Latin', 'Han', 'Hangul']), // Korean
];

/** Analyses a URL-mode link offline: parts, registrable domain, warnings, and whether it may be opened at all. */
export function analyzeUrl(href: string): UrlAnalysis {
  const raw = typeof href === 'string' ? href : '';
  const warnings: UrlWarning[] = [];
  if (raw.length > MAX_URL_LENGTH) {
    warnings.push({
      code: 'too-long',
      message:
        `The link is ${raw.length} characters long (more than ${MAX_URL_LENGTH}), ` +
        'which can hide where it really goes.',
    });
  }

  const unparseable: UrlAnalysis = {
    href: raw,
    scheme: '',
    host: '',
    hostUnicode: '',
    registrableDomain: '',
    registrableDomainUnicode: '',
    loopback: false,
    blocked: true,
    warnings: [{ code: 'unparseable', message: 'The link is not a valid URL and cannot be opened.' }, ...warnings],
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return unparseable;
  }

  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  const host = url.hostname;
  const labels = host.split('.');
  // Runtimes' URL parsers disagree on invalid Punycode (Node 24 accepts what
  // Node 20 refuses): the verdict is ours.
  if (labels.some((label) => aceLabelProblem(label) !== null)) return unparseable;
  const unicodeLabels = labels.map(toUnicodeLabel);
  const hostUnicode = isIpLiteral(host) ? host : unicodeLabels.join('.');
  const loopback = isLoopback(host);
  const { ascii: registrableDomain, unicode: registrableDomainUnicode } = registrable(host, labels, unicodeLabels);
  const shown = hostUnicode || '(no host)';

  let blocked = false;
  if (scheme !== 'https' && scheme !== 'http') {
    blocked = true;
    warnings.unshift({
      code: 'blocked-scheme',
      message: `Links starting with "${scheme}:" cannot be opened; only https, or http to this computer, is allowed.`,
    });
  } else if (scheme === 'http' && !loopback) {
    blocked = true;
    warnings.push({
      code: 'http-not-loopback',
      message: `The link uses unencrypted http to ${shown}; only https is allowed for other computers.`,
    });
  }

  if (url.username || url.password) {
    warnings.push({
      code: 'credentials',
      message: `The link carries a user name or password before "@"; the real destination is ${shown}.`,
    });
  }
  // The user's own machine by number is routine for local sign-in callbacks; only remote bare addresses are suspect.
  if (isIpLiteral(host) && !loopback) {
    warnings.push({
      code: 'raw-ip',
      message: `The link points to the bare IP address ${host} instead of a domain name.`,
    });
  }
  if (labels.some((l) => l.startsWith('xn--'))) {
    warnings.push({
      code: 'punycode',
      message:
        `The domain is written in Punycode (${host}) and displays as ${hostUnicode}; ` +
        'check that it is the site you expect.',
    });
  }
  // Chromium's IDN display policy, in short: a host that mixes scripts or
  // whose letters read as another (ASCII) name is shown in its xn-- form.
  let lookalike = false;
  if (!isIpLiteral(host)) {
    for (const label of unicodeLabels) {
      const scripts = mixedScripts(label);
      if (scripts) {
        lookalike = true;
        warnings.push({
          code: 'mixed-script',
          message:
            `The domain part "${label}" mixes ${scripts.join(' and ')} letters, ` +
            'a common way to imitate another domain.',
        });
      }
      const readsAs = asciiLookalike(label);
      if (readsAs !== null) {
        lookalike = true;
        warnings.push({
          code: 'confusable',
          message: `The domain part "${label}" is written with letters that look like "${readsAs}" but are not.`,
        });
      }
    }
  }

  return {
    href: raw,
    scheme,
    host,
    hostUnicode,
    registrableDomain,
    registrableDomainUnicode,
    loopback,
    warnings,
    blocked,
    lookalike,
  };
}

/**
 * The ASCII name a non-ASCII label passes for, or null: its UTS #39
 * skeleton is plain ASCII, so every non-ASCII letter in it imitates an ASCII
 * one ("pаypal" with a Cyrillic а reads as "paypal"). Labels with letters
 * that look like nothing in ASCII ("münchen", "例え") are real words.
 */
function asciiLookalike(label: string): string | null {
  if (/^[\x00-\x7f]*$/.test(label)) return null;
  const skeleton = unhomoglyph(label);
  return /^[\x00-\x7f]*$/.test(skeleton) ? skeleton.toLowerCase() : null;
}

function toUnicodeLabel(label: string): string {
  if (!label.startsWith('xn--')) return label;
  return punycode.toUnicode(label); // aceLabelProblem has checked that it decodes
}

function isIpv4(host: string): boolean {
  // The URL parser has already turned 0x7f.1, 2130706433 and friends into dotted quads.
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

function isIpLiteral(host: string): boolean {
  return isIpv4(host) || host.startsWith('[');
}

// Deliberately strict: only these three forms, not "localhost." or
// "*.localhost", whose resolution depends on the browser and resolver.
function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '[::1]') return true;
  return isIpv4(host) && host.startsWith('127.');
}

function registrable(host: string, labels: string[], unicodeLabels: string[]): { ascii: string; unicode: string } {
  if (!host || isIpLiteral(host)) return { ascii: host, unicode: host };
  // A trailing dot (fully qualified name) is the same domain.
  let n = labels.length;
  if (labels[n - 1] === '') n -= 1;
  const lower = labels.slice(0, n).map((l) => l.toLowerCase());
  let take = Math.min(2, n);
  for (const size of [3, 2]) {
    if (n >= size && MULTI_LABEL_SUFFIXES.has(lower.slice(n - size).join('.'))) {
      take = Math.min(size + 1, n);
      break;
    }
  }
  return {
    ascii: labels.slice(n - take, n).join('.'),
    unicode: unicodeLabels.slice(n - take, n).join('.'),
  };
}

// The distinct scripts of a label's letters when they form a suspicious mix, else null.
function mixedScripts(label: string): string[] | null {
  const found = new Set<string>();
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue; // digits, hyphens and marks belong to no one script
    found.add(SCRIPTS.find((s) => s.re.test(ch))?.name ?? 'other');
  }
  if (found.size <= 1) return null;
  if (ALLOWED_MIXES.some((mix) => [...found].every((s) => mix.has(s)))) return null;
  return [...found];
}
