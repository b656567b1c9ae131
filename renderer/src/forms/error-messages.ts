// Turns validation errors (Ajv's, or the interpreter's in Ajv's shape) into
// one short, localised sentence per problem, attached to the field the human
// sees. Pure; used as RJSF's transformErrors.
import type { RJSFValidationError } from '@rjsf/utils';
import type { Translate } from '../i18n/translate';

const CHOICE_KEYWORDS = new Set(['enum', 'const', 'oneOf', 'anyOf']);

/** The message for one error. */
export function errorMessage(error: Pick<RJSFValidationError, 'name' | 'params'>, t: Translate): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  const limit = typeof params.limit === 'number' ? params.limit : 0;
  switch (error.name) {
    case 'required':
      return t('error.required');
    case 'minLength':
    case 'maxLength':
      return limit === 1 ? t(`error.${error.name}One`) : t(`error.${error.name}`, { limit });
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
      return t(`error.${error.name}`, { limit });
    case 'exclusiveMinimum':
      return t('error.minimum', { limit });
    case 'exclusiveMaximum':
      return t('error.maximum', { limit });
    case 'type': {
      const type = String(params.type ?? '');
      return type === 'integer'
        ? t('error.type.integer')
        : type === 'number'
          ? t('error.type.number')
          : t('error.type.other');
    }
    case 'format': {
      const format = String(params.format ?? '');
      return ['email', 'uri', 'date', 'date-time'].includes(format)
        ? t(`error.format.${format}` as 'error.format.email')
        : t('error.other');
    }
    case 'uniqueItems':
      return t('error.uniqueItems');
    default:
      return error.name && CHOICE_KEYWORDS.has(error.name) ? t('error.choice') : t('error.other');
  }
}

/** The top-level field an error belongs to: `.tags.2` (an item of a multi-select) counts as `.tags`. */
export function fieldOf(property: string | undefined): string {
  const first = (property ?? '').replace(/^\./, '').split('.')[0] ?? '';
  return first;
}

/** Localises errors, moves item errors to their field, and drops repeats (one sentence per field and kind). */
export function localiseErrors(errors: readonly RJSFValidationError[], t: Translate): RJSFValidationError[] {
  const seen = new Set<string>();
  const out: RJSFValidationError[] = [];
  for (const error of errors) {
    const field = fieldOf(error.property);
    const message = errorMessage(error, t);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      ...error,
      property: field ? `.${field}` : '',
      message,
      stack: field ? `${field}: ${message}` : message,
    });
  }
  return out;
}
