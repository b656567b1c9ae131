// The one way a schema becomes a form, for question dialogs and the Tools
// view alike: the Countersign theme, the shared validator, errors shown
// inline only (no list, no browser bubbles), focus on the first bad field,
// and exactly the schema's defaults pre-filled.
import type { FormProps } from '@rjsf/core';
import { getFormValidator } from './shared-validator';
import { ThemedForm } from './theme';

/**
 * Pre-fill exactly the server's defaults: RJSF would otherwise pick the first
 * titled choice (a `const`) as a default, or pad arrays to minItems. Exported
 * for forms drawn read-only (a recorded question) that must show the same.
 */
export const DEFAULTS_BEHAVIOUR = {
  arrayMinItems: { populate: 'never' },
  emptyObjectFields: 'populateAllDefaults',
  constAsDefaults: 'never',
} as const;

/** A form's own props; `live` moves validation from leaving a field to every change. */
export type InlineValidatedFormProps = Omit<
  FormProps<Record<string, unknown>>,
  | 'validator'
  | 'noHtml5Validate'
  | 'showErrorList'
  | 'focusOnFirstError'
  | 'liveValidate'
  | 'experimental_defaultFormStateBehavior'
> & { live: boolean };

/** RJSF's form with the rules every Countersign form shares. */
export default function InlineValidatedForm({ live, ...props }: InlineValidatedFormProps) {
  return (
    <ThemedForm
      {...props}
      validator={getFormValidator()}
      noHtml5Validate
      showErrorList={false}
      focusOnFirstError
      liveValidate={live ? 'onChange' : 'onBlur'}
      experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
    />
  );
}
