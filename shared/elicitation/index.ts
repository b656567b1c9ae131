// Public API of the platform-free elicitation rules: types, schema check,
// defaults, answer validation, form normalisation and secret-field warnings.
export type * from './types';
export { checkFlatSchema, formatSchemaProblems, propertyPath, STRING_FORMATS } from './schema-rules';
export type { FlatSchemaCheck } from './schema-rules';
export { defaultsOf, withDefaults } from './defaults';
export { validateAnswer } from './validate-answer';
export type { AnswerCheck } from './validate-answer';
export { normaliseForForm } from './for-form';
export type { FormChoice, FormFieldSchema, FormSchema } from './for-form';
export { looksLikeSecret, secretFieldWarnings, splitWords } from './secret-fields';
export type { Word } from './secret-fields';
