// The validator handed to RJSF: @rjsf/validator-ajv8's customizeValidator
// with Ajv's JSON Schema 2020-12 class, since MCP schemas are 2020-12.
//
// Ajv turns each schema into JavaScript with `new Function`. The renderer's
// Content-Security-Policy forbids that ('unsafe-eval' is deliberately absent),
// so where evaluation is blocked the same RJSF validator runs its schemas
// through ./flat-check.ts instead, a small interpreter for the flat MCP
// subset with Ajv-shaped errors. Everything RJSF does with the results
// (error schema, localisation, focus) is identical on both paths.
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkValue } from './flat-check';
import { vouchedAs } from '../../../shared/vouched-as';

/** Which engine evaluates schemas: Ajv's compiled code, the interpreter, or whichever the page allows. */
export type ValidationEngine = 'ajv' | 'interpreter' | 'auto';

/** A validator plus a way to learn which engine it ended up using. */
export type FormValidator = ValidatorType & { engine(): 'ajv' | 'interpreter' };

/** True when the page's CSP (a meta tag here; a header cannot be read) forbids string evaluation. */
export function cspForbidsEval(doc: Pick<Document, 'querySelectorAll'> | undefined = globalThis.document): boolean {
  if (!doc) return false;
  for (const meta of doc.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')) {
    const policy = meta.getAttribute('content') ?? '';
    const directives = new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((p) => p[0])
        .map((p) => [p[0]!.toLowerCase(), p.slice(1)] as const),
    );
    const scripts = directives.get('script-src') ?? directives.get('default-src');
    if (scripts && !scripts.includes("'unsafe-eval'")) return true;
  }
  return false;
}

// Probes once whether `new Function` works (a CSP sent as a header is only
// visible this way). Only reached when no meta tag already said no.
function evaluationWorks(): boolean {
  try {
    return new Function('return 1')() === 1;
  } catch {
    return false;
  }
}

/** Creates the RJSF validator (Ajv 2020-12, or the interpreter where evaluation is blocked). */
export function createFormValidator(engine: ValidationEngine = 'auto'): FormValidator {
  // RJSF types the validator by its schema generics; ours is the same object, used with FormSchema only.
  const validator = vouchedAs<FormValidator>(customizeValidator({ AjvClass: Ajv2020 }));
  let chosen: 'ajv' | 'interpreter' | undefined = engine === 'auto' ? undefined : engine;
  const choose = () => (chosen ??= !cspForbidsEval() && evaluationWorks() ? 'ajv' : 'interpreter');

  const ajvRawValidation = validator.rawValidation.bind(validator);
  const ajvIsValid = validator.isValid.bind(validator);
  validator.rawValidation = ((schema: RJSFSchema, formData?: unknown) =>
    choose() === 'ajv'
      ? ajvRawValidation(schema, formData)
      : { errors: checkValue(schema, formData) }) as FormValidator['rawValidation'];
  validator.isValid = (schema, formData, rootSchema) =>
    choose() === 'ajv' ? ajvIsValid(schema, formData, rootSchema) : checkValue(schema, formData).length === 0;
  validator.engine = choose;
  return validator;
}
