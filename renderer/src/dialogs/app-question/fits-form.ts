// An app's proposal checked by the native form's own validator: the same rules
// the form runs on the person's input (interpreted where the page's policy
// forbids compiled code, as it does here). The host checks once more before
// anything is sent (the core's gate).
import type { SchemaCheck } from '../../../../shared/elicitation/app-form';
import { normaliseForForm } from '../../../../shared/elicitation/for-form';
import { fieldOf } from '../../forms/error-messages';
import { getFormValidator } from '../../forms/shared-validator';

export const fitsForm: SchemaCheck = (schema, content) => {
  const form = normaliseForForm(schema);
  const { errors } = getFormValidator().validateFormData(content, form);
  if (errors.length === 0) return { ok: true };
  return {
    ok: false,
    errors: errors.map((e) => {
      const field = fieldOf(e.property);
      const title = schema.properties[field]?.title || field;
      return { field, message: title ? `${title}: ${e.message ?? 'does not fit'}` : (e.message ?? 'does not fit') };
    }),
  };
};
