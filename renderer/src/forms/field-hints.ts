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
      const atLeast = () => (min === 1 ? t('form.charsMinOne') : t('form.charsMin', { min: min ?? 0 }));
      if (max !== undefined) {
        if (min !== undefined && min > 0) parts.push(atLeast());
        const count = typeof value === 'string' ? [...value].length : 0;
        parts.push(max === 1 ? t('form.charsOne', { count }) : t('form.chars', { count, max }));
      } else if (min !== undefined && min > 0) {
        parts.push(atLeast());
      }
      // Empty in a language whose dates the browser's picker takes; the typed order where they are typed.
      const format =
        schema.format === 'date' ? t('form.dateFormat') : schema.format === 'date-time' ? t('form.dateTimeFormat') : '';
      if (format) parts.push(format);
      // What is sent, once there is something to send (typed text that is no moment yet is not).
      if (schema.format === 'date-time' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value))
        parts.push(t('form.dateTimeHint', { value }));
      break;
    }
    case 'number':
    case 'integer': {
      if (schema.type === 'integer') parts.push(t('form.wholeNumber'));
      // A bound at the edge of safe integers is no bound a human needs to read.
      const min = bound(schema.minimum);
      const max = bound(schema.maximum);
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

function bound(limit: number | undefined): number | undefined {
  return limit === undefined || Math.abs(limit) >= Number.MAX_SAFE_INTEGER ? undefined : limit;
}
