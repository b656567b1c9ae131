// Servers MUST NOT ask for passwords, API keys, tokens or payment data in form
// mode; a careful host warns the human when a field looks like one. This is a
// heuristic for a warning, not a gate: it errs towards warning, but matches
// whole words (after splitting camelCase, snake_case, kebab-case) so that
// "pinned", "tokenizer" or "max_tokens" do not cry wolf.

import type { FlatSchema } from './types';

// Words that are secrets on their own, compared with a whole (lower-case) word.
const SECRET_WORDS = new Set([
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'cvv',
  'cvc',
  'iban',
  'otp',
  'totp',
  'hotp',
  'bearer',
  // German
  'passwort',
  'passwörter',
  'kennwort',
  'kennwörter',
  'geheimnis',
  'geheimzahl',
  'geheimcode',
  'zugangsdaten',
  'anmeldedaten',
  'zugangscode',
  'zugangstoken',
  'einmalcode',
  'pincode',
  'sicherheitscode',
  'prüfnummer',
  'kartenprüfnummer',
]);

// Stems that are secret even inside a glued-together word ("newpassword",
// "Benutzerpasswort", "Kreditkartennummer"); long enough to be unambiguous.
const SECRET_STEMS = [
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'privatekey',
  'secretkey',
  'accesstoken',
  'authtoken',
  'refreshtoken',
  'bearertoken',
  'clientsecret',
  'creditcard',
  'cardnumber',
  'passwort',
  'kennwort',
  'kreditkart',
  'kartennummer',
  'kontonummer',
  'apischlüssel',
  'apischluessel',
  'privatschlüssel',
  'privatschluessel',
  'bankverbindung',
];

// Two- or three-word phrases, matched on consecutive words.
const SECRET_PHRASES: string[][] = [
  ['api', 'key'],
  ['api', 'keys'],
  ['private', 'key'],
  ['secret', 'key'],
  ['access', 'key'],
  ['card', 'number'],
  ['credit', 'card'],
  ['debit', 'card'],
  ['cc', 'number'],
  ['security', 'code'],
  ['card', 'verification'],
  ['bank', 'account'],
  ['pin', 'code'],
  ['pin', 'number'],
  ['pin', 'nummer'],
  ['one', 'time', 'code'],
  ['verification', 'code'],
  ['2fa', 'code'],
  ['mfa', 'code'],
  ['auth', 'code'],
  ['authorization', 'code'],
  ['seed', 'phrase'],
  ['recovery', 'phrase'],
  ['recovery', 'code'],
  ['recovery', 'codes'],
  ['backup', 'code'],
  ['backup', 'codes'],
  ['api', 'schlüssel'],
  ['api', 'schluessel'],
  ['privater', 'schlüssel'],
  ['privater', 'schluessel'],
];

// "token" alone is a secret ("access token"), but LLM settings talk about
// token counts; a neighbouring measure word marks those as harmless.
const TOKEN_MEASURES = new Set([
  'count',
  'limit',
  'limits',
  'budget',
  'usage',
  'length',
  'size',
  'max',
  'maximum',
  'min',
  'minimum',
  'number',
  'type',
  'kind',
  'cost',
  'price',
  'anzahl',
]);

/** One word of a split text, in its original case and lower-cased. */
export interface Word {
  lower: string;
  original: string;
}

/** Splits text into words at spaces, punctuation, camelCase humps and letter-digit seams. */
export function splitWords(text: string): Word[] {
  const spaced = text
    .normalize('NFKC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') // apiKey -> api Key
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2') // APIKey -> API Key
    .replace(/(\p{L})(\p{N})/gu, '$1 $2'); // cvv2 -> cvv 2 (but 2fa stays whole)
  return spaced
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((original) => ({ original, lower: original.toLowerCase() }));
}

// The phrases by their first word, so each word looks only at the phrases it can start.
const PHRASES_BY_FIRST_WORD = new Map<string, string[][]>();
for (const phrase of SECRET_PHRASES) {
  const [first] = phrase;
  if (first === undefined) continue;
  PHRASES_BY_FIRST_WORD.set(first, [...(PHRASES_BY_FIRST_WORD.get(first) ?? []), phrase]);
}

function startsPhrase(words: readonly Word[], at: number): boolean {
  for (const phrase of PHRASES_BY_FIRST_WORD.get(words[at]!.lower) ?? []) {
    let k = 1;
    while (k < phrase.length && words[at + k]?.lower === phrase[k]) k++;
    if (k === phrase.length) return true;
  }
  return false;
}

function hasSecretStem(lower: string): boolean {
  for (const stem of SECRET_STEMS) if (lower.includes(stem)) return true;
  return false;
}

function isTokenMeasure(word: Word | undefined): boolean {
  return word !== undefined && TOKEN_MEASURES.has(word.lower);
}

/**
 * True when a piece of text (a field name, title or description) reads like a request for a secret. Every field of a
 * form is checked as its question arrives, before the dialog can paint: no closure or array per word and phrase
 * (a heap profile found the closures were a tenth of what a question's arrival allocated).
 */
export function looksLikeSecret(text: string): boolean {
  const words = splitWords(text);
  for (let i = 0; i < words.length; i++) {
    const { lower, original } = words[i]!;
    if (SECRET_WORDS.has(lower) || hasSecretStem(lower)) return true;
    if (lower === 'token' && !isTokenMeasure(words[i - 1]) && !isTokenMeasure(words[i + 1])) return true;
    // "PIN" and the German banking "TAN" only when written as acronyms, or
    // when "pin" is the whole text: "Pin to top" and "tan" the colour stay quiet.
    if (original === 'PIN' || original === 'TAN' || (lower === 'pin' && words.length === 1)) return true;
    if (startsPhrase(words, i)) return true;
  }
  return false;
}

/** Names of fields whose name, title or description looks like a password, key, token or payment data. */
export function secretFieldWarnings(schema: FlatSchema): string[] {
  return Object.entries(schema.properties)
    .filter(([name, p]) => [name, p.title, p.description].some((t) => typeof t === 'string' && looksLikeSecret(t)))
    .map(([name]) => name);
}
