// The short help line under a field: its limits in words, and for text a
// live character count. Pure; the FieldTemplate shows it.
import type { Translate } from '../i18n/translate';

/** The schema keys the hints look at. */
export interface HintSchema {
  type?: unknown;
  format?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** The hint for a field with its current value, or '' when there is nothing to say. */
export function fieldHint(schema: HintSchema, value: unknown, t: Translate): string {
  const parts: string[] = [];
  switch (schema.type) {
    case 'string': {
      const { minLength: min, maxLength: max } = schema;
      if (max !== undefined) {
        if (min !== undefined && min > 0) parts.push(t('form.charsMin', { min }));
        parts.push(t('form.chars', { count: typeof value === 'string' ? [...value].length : 0, max }));
      } else if (min !== undefined && min > 0) {
        parts.push(t('form.charsMin', { min }));
      }
      if (schema.format === 'date-time' && typeof value === 'string' && value)
        parts.push(t('form.dateTimeHint', { value }));
      break;
    }
    case 'number':
    case 'integer': {
      if (schema.type === 'integer') parts.push(t('form.wholeNumber'));
      const { minimum: min, maximum: max } = schema;
      if (min !== undefined && max !== undefined) parts.push(t('form.numRange', { min, max }));
      else if (min !== undefined) parts.push(t('form.numMin', { min }));
      else if (max !== undefined) parts.push(t('form.numMax', { max }));
      break;
    }
    case 'array': {
      const { minItems: min, maxItems: max } = schema;
      if (min !== undefined && min > 0 && max !== undefined) parts.push(t('form.pickRange', { min, max }));
      else if (min !== undefined && min > 0) parts.push(t('form.pickMin', { min }));
      else if (max !== undefined) parts.push(t('form.pickMax', { max }));
      break;
    }
  }
  return parts.join(' · ');
}
