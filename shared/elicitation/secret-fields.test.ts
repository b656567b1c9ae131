import { describe, it, expect } from 'vitest';
import { looksLikeSecret, secretFieldWarnings, splitWords } from './secret-fields';
import type { FlatSchema } from './types';

describe('splitWords', () => {
  it('splits camelCase, PascalCase acronyms, snake, kebab and letter-digit seams', () => {
    expect(splitWords('apiKey').map((w) => w.lower)).toEqual(['api', 'key']);
    expect(splitWords('APIKey').map((w) => w.lower)).toEqual(['api', 'key']);
    expect(splitWords('client_secret-value').map((w) => w.lower)).toEqual(['client', 'secret', 'value']);
    expect(splitWords('cvv2').map((w) => w.lower)).toEqual(['cvv', '2']);
    expect(splitWords('2FA code').map((w) => w.lower)).toEqual(['2fa', 'code']);
  });
});

describe('looksLikeSecret: positives', () => {
  it.each([
    'password',
    'Password',
    'newPassword',
    'db_password',
    'PASSWORD_CONFIRM',
    'passwd',
    'pwd',
    'passphrase',
    'Passcode',
    'token',
    'accessToken',
    'auth_token',
    'Bearer token',
    'GitHub personal access token',
    'refreshtoken',
    'api key',
    'apiKey',
    'api_key',
    'APIKEY',
    'API-Key',
    'x-api-key',
    'secret',
    'clientSecret',
    'client_secret',
    'Secrets',
    'credential',
    'AWS credentials',
    'secret key',
    'private key',
    'privateKey',
    'SSH private_key',
    'access key id',
    'card number',
    'cardNumber',
    'Credit card',
    'creditCardNumber',
    'debit card',
    'CVV',
    'cvc',
    'cvv2',
    'Security code',
    'IBAN',
    'iban',
    'bank account',
    'PIN',
    'pin',
    'Pin code',
    'pin_number',
    'OTP',
    'one-time code',
    'TOTP',
    'verification code',
    '2FA code',
    'MFA-Code',
    'seed phrase',
    'recovery codes',
  ])('flags %j', (text) => {
    expect(looksLikeSecret(text)).toBe(true);
  });

  it.each([
    'Passwort',
    'Benutzerpasswort',
    'WLAN-Passwort',
    'Kennwort',
    'Geheimnis',
    'Kreditkarte',
    'Kreditkartennummer',
    'Kartennummer',
    'Kontonummer',
    'Geheimzahl',
    'Zugangsdaten',
    'Anmeldedaten',
    'API-Schlüssel',
    'Privater Schlüssel',
    'PIN-Nummer',
    'TAN',
    'Sicherheitscode',
    'Bankverbindung',
  ])('flags German %j', (text) => {
    expect(looksLikeSecret(text)).toBe(true);
  });
});

describe('looksLikeSecret: negatives', () => {
  it.each([
    'name',
    'email',
    'pinned',
    'isPinned',
    'Pin to top',
    'spinner',
    'tokenizer',
    'Tokenizer model',
    'max_tokens',
    'maxTokens',
    'Maximum tokens',
    'token count',
    'Token limit',
    'secretary',
    'Secretariat',
    'public key',
    'keyboard',
    'Sort key',
    'passenger',
    'bypass',
    'compass',
    'tan',
    'Tangent',
    'Standard',
    'Kartoffel',
    'Kennzeichen',
    'credit score',
    'card title',
    'Account name',
    'Geheimratsecken',
    'description',
    'Your favourite colour',
    '',
  ])('does not flag %j', (text) => {
    expect(looksLikeSecret(text)).toBe(false);
  });
});

describe('secretFieldWarnings', () => {
  it('returns the names of fields whose name, title or description looks secret, in order', () => {
    const schema: FlatSchema = {
      type: 'object',
      properties: {
        username: { type: 'string', title: 'User name' },
        pw: { type: 'string', title: 'Password' },
        a: { type: 'string', description: 'Paste your GitHub token here' },
        apiKey: { type: 'string' },
        pinned: { type: 'boolean', title: 'Pinned' },
        card: { type: 'string', title: 'Kreditkartennummer' },
        maxTokens: { type: 'integer', title: 'Max tokens' },
      },
    };
    expect(secretFieldWarnings(schema)).toEqual(['pw', 'a', 'apiKey', 'card']);
  });

  it('is empty for harmless and confirm-only schemas', () => {
    expect(secretFieldWarnings({ type: 'object', properties: {} })).toEqual([]);
    expect(secretFieldWarnings({ type: 'object', properties: { city: { type: 'string', title: 'City' } } })).toEqual(
      [],
    );
  });
});
