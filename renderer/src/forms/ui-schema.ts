// Picks the widget for each field of a normalised form schema. Pure.
import type { UiSchema } from '@rjsf/utils';
import type { FormSchema } from '../../../shared/elicitation/for-form';

/** Up to this many options a required single-select shows as radio buttons (all visible at once). */
export const RADIO_LIMIT = 5;

/** The widget name for one field. */
export function widgetFor(name: string, schema: FormSchema): string | undefined {
  const field = schema.properties[name];
  if (!field) return undefined;
  if (field.type === 'array') return 'checkboxes';
  if (field.type === 'boolean') return 'checkbox';
  const options = field.enum?.length ?? field.oneOf?.length;
  if (field.type === 'string' && options !== undefined) {
    // A radio group cannot be emptied again, so optional choices get a select with a "no selection" entry.
    return options <= RADIO_LIMIT && (schema.required ?? []).includes(name) ? 'radio' : 'select';
  }
  return undefined; // RJSF's choice by type and format: text, email, uri, date, date-time, number
}

/** The uiSchema for a form: widgets per field, and no built-in submit button (the dialog has its own). */
export function buildUiSchema(schema: FormSchema): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const name of Object.keys(schema.properties)) {
    const widget = widgetFor(name, schema);
    // defineProperty: a field may be called "__proto__" or the like.
    if (widget)
      Object.defineProperty(ui, name, {
        value: { 'ui:widget': widget },
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return ui;
}
