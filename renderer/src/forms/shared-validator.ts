// One form validator for the whole renderer: creating Ajv is the slow part,
// and Ajv caches compiled schemas across dialogs.
import { createFormValidator, type FormValidator } from './validator';

let instance: FormValidator | undefined;

/** The renderer's form validator, created on first use. */
export function getFormValidator(): FormValidator {
  return (instance ??= createFormValidator());
}
