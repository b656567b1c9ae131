// Which helper texts a field shows, computed once for the template that draws
// them and for the widget whose aria-describedby must point at them (only at
// elements that exist).
import { descriptionId, errorId, helpId, type Registry } from '@rjsf/utils';
import { fieldHint, type HintSchema } from './field-hints';
import { themeContext } from './form-context';

/** What a field shows besides its control. */
export interface FieldTexts {
  description: string;
  secret: boolean;
  hint: string;
  errors: readonly string[];
  /** Space-separated ids of the texts that exist, or undefined. */
  describedBy: string | undefined;
}

/** The inputs the computation needs (a subset of both FieldTemplateProps and WidgetProps). */
export interface FieldTextsInput {
  id: string;
  schema: HintSchema & { description?: string };
  value: unknown;
  rawErrors?: readonly string[] | undefined;
  registry: Pick<Registry, 'formContext'> & { globalFormOptions?: Pick<Registry['globalFormOptions'], 'idPrefix'> };
}

/**
 * Every form on a page gets its own id prefix (a dialog opens over the Tools
 * view's form and the History view's record): with RJSF's default `root`
 * both would have `root_name`, and a label would point at the field behind
 * the dialog. The separator is RJSF's `_`.
 */
export const FORM_ID_PREFIX = { answer: 'answer', toolArgs: 'args', record: 'record' } as const;

/** The field's name: the part of the RJSF id after the form's prefix and `_`. */
export function fieldName(id: string, prefix = 'root'): string {
  return id.startsWith(`${prefix}_`) ? id.slice(prefix.length + 1) : id;
}

/** Computes the texts a field shows and the ids that describe its control. */
export function fieldTexts({ id, schema, value, rawErrors, registry }: FieldTextsInput): FieldTexts {
  const { t, secretFields } = themeContext(registry);
  const description = typeof schema.description === 'string' ? schema.description.trim() : '';
  const secret = secretFields.has(fieldName(id, registry.globalFormOptions?.idPrefix));
  const hint = fieldHint(schema, value, t);
  const errors = rawErrors ?? [];
  const ids = [
    errors.length > 0 ? errorId(id) : '',
    description || secret ? descriptionId(id) : '',
    hint ? helpId(id) : '',
  ].filter(Boolean);
  return { description, secret, hint, errors, describedBy: ids.length > 0 ? ids.join(' ') : undefined };
}
