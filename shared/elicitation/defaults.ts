// Pre-filled answers. The spec says clients SHOULD pre-fill defaults, and the
// official conformance scenario (elicitation-sep1034-client-defaults) expects
// accepted content to carry every defaulted field, so both the form and any
// headless "accept" path start from this.

import type { AnswerContent, AnswerValue, FlatSchema } from './types';

/** Content holding every field that declares a default, in property order (arrays copied). */
export function defaultsOf(schema: FlatSchema): AnswerContent {
  const content: AnswerContent = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = copyAnswerValue(prop.default);
    // defineProperty, not assignment: a field could be named like an Object.prototype member.
    if (value !== undefined)
      Object.defineProperty(content, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return content;
}

// Only the four answer shapes survive; a copy keeps callers from sharing the schema's arrays.
function copyAnswerValue(value: unknown): AnswerValue | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return [...value];
  return undefined;
}
