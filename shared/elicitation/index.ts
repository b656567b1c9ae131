// Public API of the platform-free elicitation rules: types, schema check,
// defaults, answer validation, form normalisation and secret-field warnings.
export type * from './types.js';
export { checkFlatSchema, formatSchemaProblems, propertyPath, STRING_FORMATS } from './schema-rules.js';
export type { FlatSchemaCheck } from './schema-rules.js';
export { defaultsOf, withDefaults } from './defaults.js';
export { validateAnswer } from './validate-answer.js';
export type { AnswerCheck } from './validate-answer.js';
export { normaliseForForm } from './for-form.js';
export type { FormChoice, FormFieldSchema, FormSchema } from './for-form.js';
export { looksLikeSecret, secretFieldWarnings, splitWords } from './secret-fields.js';
export type { Word } from './secret-fields.js';
