// App-rendered questions (SEP-3118, a draft): a form question may name an MCP
// App (`_meta.ui.resourceUri`) that draws the form inside the host's dialog.
// Countersign reads it the safe way: the app only *proposes* values. Whatever
// it sends back is checked here against the question's own schema, outside
// the app's sandbox; a proposal that fails is not used, and the native form
// takes over. Nothing the app sends is an answer: the host's own Accept,
// Decline and Cancel buttons are. Pure: the core and the renderer share it.
import { validateAnswer, type AnswerCheck } from './validate-answer';
import type { AnswerContent, FlatSchema } from './types';

/** The longest app resource URI the host reads (as for a tool's app). */
export const MAX_APP_URI_CHARS = 2048;

/** A form question's app, as the server named it; the host fetches it from the asking server only. */
export interface AppFormHint {
  resourceUri: string;
}

/**
 * The app an elicitation's params name, or undefined when they name none or a
 * malformed one (the SEP: metadata the host cannot use is ignored, and the
 * native form shows). Only an absolute `ui://` URI counts.
 */
export function appFormHint(params: { _meta?: unknown }): AppFormHint | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const ui = (meta as { ui?: unknown }).ui;
  if (typeof ui !== 'object' || ui === null) return undefined;
  const uri = (ui as { resourceUri?: unknown }).resourceUri;
  if (typeof uri !== 'string' || uri.length > MAX_APP_URI_CHARS || !/^ui:\/\/[^\s/]/.test(uri)) return undefined;
  return { resourceUri: uri };
}

/** What the app's reply to the host's `elicitation/create` came to. */
export type AppProposal =
  /** Values that fit the form: the host shows them; only the person's Accept sends them. */
  | { kind: 'values'; content: AnswerContent }
  /** The app suggests declining or cancelling: shown as a note, nothing is sent. */
  | { kind: 'suggests'; action: 'decline' | 'cancel' }
  /** Not usable: the native form takes over, and says why. */
  | { kind: 'refused'; reason: string };

const MAX_REASON_PROBLEMS = 3;

/**
 * How content is checked against a schema: validateAnswer (Ajv) where code may be compiled; the renderer, whose
 * policy forbids that, passes its form validator (the same checks the native form runs, interpreted).
 */
export type SchemaCheck = (schema: FlatSchema, content: unknown) => AnswerCheck;

/**
 * Read an app's ElicitResult as a proposal, checked against `schema` (the question's, never the app's): its shape
 * here (only the form's fields, only values an answer can carry), then `fits` for the schema's own rules.
 */
export function readAppProposal(schema: FlatSchema, result: unknown, fits: SchemaCheck = validateAnswer): AppProposal {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    return { kind: 'refused', reason: 'the app did not send a result' };
  const { action, content } = result as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { kind: 'suggests', action };
  if (action !== 'accept') return { kind: 'refused', reason: 'the app sent a result with no known action' };
  const values = content ?? {};
  const check = shapeOf(schema, values) ?? fits(schema, values);
  if (!check.ok) {
    const problems = check.errors.slice(0, MAX_REASON_PROBLEMS).map((p) => p.message.replace(/\.+$/, ''));
    const more =
      check.errors.length > MAX_REASON_PROBLEMS ? ` (and ${check.errors.length - MAX_REASON_PROBLEMS} more)` : '';
    return {
      kind: 'refused',
      reason: `the app proposed values that do not fit the form: ${problems.join('; ')}${more}`,
    };
  }
  // Only the schema's own fields, copied: nothing of the app's object (a getter, a prototype) goes further.
  const copy: AnswerContent = {};
  for (const name of Object.keys(schema.properties)) {
    const value = (values as Record<string, unknown>)[name];
    if (value === undefined) continue;
    Object.defineProperty(copy, name, {
      value: Array.isArray(value) ? [...(value as string[])] : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { kind: 'values', content: copy };
}

/** The problems of content's shape (not an object, a field the form lacks, a value no answer carries), or null. */
function shapeOf(schema: FlatSchema, content: unknown): AnswerCheck | null {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return {
      ok: false,
      errors: [{ field: '', message: 'The answer must be an object mapping field names to values.' }],
    };
  const errors = Object.entries(content).flatMap(([field, value]) => {
    if (!Object.hasOwn(schema.properties, field))
      return [{ field, message: `"${field}" is not a field of this form.` }];
    const ok =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    return ok ? [] : [{ field, message: `"${field}" has a value an answer cannot carry.` }];
  });
  return errors.length > 0 ? { ok: false, errors } : null;
}
