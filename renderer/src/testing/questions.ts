// Question fixtures for tests (and the harness's screenshots): one per dialog kind and widget.
import type {
  FlatSchema,
  FormQuestion,
  QuestionOrigin,
  UrlAnalysis,
  UrlQuestion,
} from '../../../shared/elicitation/types';

let counter = 0;

/** An origin with sensible defaults. */
export function origin(patch: Partial<QuestionOrigin> = {}): QuestionOrigin {
  return {
    server: 'github',
    era: 'modern',
    method: 'tools/call',
    name: 'create_issue',
    argumentsSummary: 'repo="octo/hello"',
    round: 1,
    key: 'input',
    ...patch,
  };
}

/** A form question. */
export function formQuestion(schema: FlatSchema, patch: Partial<Omit<FormQuestion, 'mode'>> = {}): FormQuestion {
  return {
    id: `q${++counter}`,
    mode: 'form',
    message: 'Please answer.',
    origin: origin(),
    requestedSchema: schema,
    ...patch,
  };
}

/** A confirm-only question (no fields). */
export function confirmQuestion(patch: Partial<Omit<FormQuestion, 'mode'>> = {}): FormQuestion {
  return formQuestion({ type: 'object', properties: {} }, { message: 'Delete the branch "old-ui"?', ...patch });
}

/** A URL analysis for an ordinary https link. */
export function analysis(patch: Partial<UrlAnalysis> = {}): UrlAnalysis {
  return {
    href: 'https://accounts.example.com/oauth/authorize?client_id=abc&state=xyz',
    scheme: 'https',
    host: 'accounts.example.com',
    hostUnicode: 'accounts.example.com',
    registrableDomain: 'example.com',
    registrableDomainUnicode: 'example.com',
    loopback: false,
    warnings: [],
    blocked: false,
    ...patch,
  };
}

/** A URL question. */
export function urlQuestion(
  url: Partial<UrlAnalysis> = {},
  patch: Partial<Omit<UrlQuestion, 'mode' | 'url'>> = {},
): UrlQuestion {
  return {
    id: `q${++counter}`,
    mode: 'url',
    message: 'Sign in to connect your account.',
    origin: origin({ server: 'calendar', name: 'connect_account', argumentsSummary: 'provider="work"' }),
    url: analysis(url),
    ...patch,
  };
}

/** A schema with one field of every kind the 2026-07-28 spec allows. */
export const everyWidgetSchema: FlatSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20, default: 'Ada' },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    birthday: { type: 'string', title: 'Birthday', format: 'date' },
    meeting: { type: 'string', title: 'Meeting', format: 'date-time' },
    score: { type: 'number', title: 'Score', minimum: 0, maximum: 10 },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 5, default: 2 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: true },
    colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'm', title: 'Medium' },
        { const: 'l', title: 'Large' },
      ],
    },
    legacy: { type: 'string', title: 'Legacy', enum: ['a', 'b'], enumNames: ['Alpha', 'Bravo'] },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['ui', 'core', 'docs'] },
      minItems: 1,
      maxItems: 2,
      default: ['core'],
    },
    teams: {
      type: 'array',
      title: 'Teams',
      items: {
        anyOf: [
          { const: 'web', title: 'Web team' },
          { const: 'ops', title: 'Operations' },
        ],
      },
    },
  },
  required: ['name', 'colour', 'size'],
};
