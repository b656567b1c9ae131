import { useCallback, useContext, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFValidationError } from '@rjsf/utils';
import { normaliseForForm, type FormSchema } from '../../../shared/elicitation/for-form';
import { secretFieldWarnings } from '../../../shared/elicitation/secret-fields';
import type { AnswerContent, FormQuestion } from '../../../shared/elicitation/types';
import { FORM_ID_PREFIX, fieldName } from '../forms/field-aria';
import { fieldOf, localiseErrors } from '../forms/error-messages';
import type { ThemeContext } from '../forms/form-context';
import InlineValidatedForm from '../forms/InlineValidatedForm';
import { buildUiSchema } from '../forms/ui-schema';
import { useLanguage, useT } from '../i18n/i18n-context';
import { plural } from '../i18n/translate';
import AnswerButton, { acceptLook } from './AnswerButton';
import { AppQuestionsContext } from './app-question/app-question-context';
import AppDrawnForm from './app-question/AppDrawnForm';
import DeliberateButton from './DeliberateButton';
import QuestionShell from './QuestionShell';
import { answerLabel } from './round-labels';
import type { DialogProps } from './dialog-props';

type Data = Record<string, unknown>;

/** The answer content from the form's data: only the schema's fields, only values MCP allows, nothing empty. */
export function contentFromFormData(schema: FormSchema, data: Data | undefined): AnswerContent {
  const content: AnswerContent = {};
  for (const name of Object.keys(schema.properties)) {
    const value = data?.[name];
    const ok =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (ok) Object.defineProperty(content, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return content;
}

/**
 * The data the form starts from: RJSF adds the schema's defaults, and a
 * checkbox with no default starts as the false it shows, required or not.
 * So an untouched checkbox is sent as false: the answer is what the human
 * saw when they pressed Submit, never a field silently left out.
 */
export function initialFormData(schema: FormSchema): Data {
  const data: Data = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.type === 'boolean' && field.default === undefined) {
      Object.defineProperty(data, name, { value: false, enumerable: true, writable: true, configurable: true });
    }
  }
  return data;
}

/** Errors ordered like the fields they belong to (stable within a field). */
export function sortByField(errors: RJSFValidationError[], order: readonly string[]): RJSFValidationError[] {
  const rank = (e: RJSFValidationError) => {
    const i = order.indexOf(fieldOf(e.property));
    return i < 0 ? order.length : i;
  };
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map((x) => x.e);
}

function countFields(errors: readonly RJSFValidationError[]): number {
  return new Set(errors.map((e) => fieldOf(e.property))).size;
}

/**
 * A form question. When the server named an app to draw it and Settings → App-drawn questions is on, the app
 * draws it inside this dialog (AppDrawnForm); any failure there hands over to the native form, which says why.
 */
export default function FormDialog(props: DialogProps<FormQuestion>) {
  const apps = useContext(AppQuestionsContext);
  const [fallback, setFallback] = useState<string | null>(null);
  if (props.question.appForm && apps?.enabled && fallback === null)
    return <AppDrawnForm {...props} apps={apps} onFallback={setFallback} />;
  return <NativeFormDialog {...props} fallback={fallback} />;
}

/**
 * The native form: every field editable and pre-filled with its default,
 * validated inline (a field's errors appear once it was left, all of them on
 * Submit), and sent only by the Submit button: Enter in a field never submits.
 * `fallback`: why the app the server named could not draw it (shown first).
 */
function NativeFormDialog(props: DialogProps<FormQuestion> & { fallback: string | null }) {
  const { question, sending, onAnswer, draft, fallback, ...rest } = props;
  void rest;
  const t = useT();
  const formId = useId();
  const schema = useMemo(() => normaliseForForm(question.requestedSchema), [question.requestedSchema]);
  const uiSchema = useMemo(() => buildUiSchema(schema), [schema]);
  const secrets = useMemo(() => secretFieldWarnings(question.requestedSchema), [question.requestedSchema]);
  const language = useLanguage();
  const formContext = useMemo<ThemeContext>(
    () => ({ t, language, secretFields: new Set(secrets) }),
    [t, language, secrets],
  );
  // Back within a round: the form shows what the human answered before.
  const initial = useMemo(
    () => ({ ...initialFormData(schema), ...(draft?.action === 'accept' ? draft.content : {}) }),
    [schema, draft],
  );

  // Refs, not state: RJSF calls transformErrors synchronously inside its own updates.
  const touched = useRef(new Set<string>());
  const attemptedRef = useRef(false);
  const [attempted, setAttempted] = useState(false);
  const [invalidFields, setInvalidFields] = useState(0);

  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => {
      // In field order, so that the first error (which RJSF focuses) is the first bad field on screen.
      const localised = sortByField(localiseErrors(errors, t), Object.keys(schema.properties));
      // Before the first Submit, only fields the human has left show their errors.
      return attemptedRef.current ? localised : localised.filter((e) => touched.current.has(fieldOf(e.property)));
    },
    [t, schema],
  );

  const onSubmit = (e: IChangeEvent<Data>) =>
    onAnswer({ action: 'accept', content: contentFromFormData(schema, e.formData) });
  const onChange = (e: IChangeEvent<Data>) => {
    if (attemptedRef.current) setInvalidFields(countFields(e.errors));
  };
  const markAttempt = () => {
    attemptedRef.current = true;
    setAttempted(true);
  };
  // Implicit submission (Enter in a text field) is off: only the Submit button sends.
  const blockEnter = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (e.key === 'Enter' && target.tagName === 'INPUT') e.preventDefault();
  };

  const secretTitles = secrets.map((name) => question.requestedSchema.properties[name]?.title || name);
  const hasRequired = (schema.required ?? []).length > 0;

  return (
    <QuestionShell
      {...withoutFallback(props)}
      kind="form"
      status={attempted && invalidFields > 0 ? plural(t, 'form.invalid', invalidFields) : null}
      actions={
        <>
          {/* Cancel labelled as itself, not only behind × and Escape: "not now" differs from "no". */}
          <AnswerButton answer={{ action: 'cancel' }} />
          <AnswerButton answer={{ action: 'decline' }} />
          <DeliberateButton
            type="submit"
            form={formId}
            className={`button button-${acceptLook(question)}`}
            busy={sending}
            onActivate={markAttempt}
          >
            {answerLabel(question, t, 'form')}
          </DeliberateButton>
        </>
      }
    >
      {fallback !== null && (
        <p className="banner banner-warning" role="note" data-testid="app-question-fallback">
          {t('appQuestion.fallback', { reason: fallback })}
        </p>
      )}
      {secrets.length > 0 && (
        <p className="banner banner-warning" role="note">
          {t('form.secretBanner', { fields: secretTitles.join(', ') })}
        </p>
      )}
      {hasRequired && <p className="form-legend">{t('form.requiredLegend')}</p>}
      <div onKeyDownCapture={blockEnter}>
        <InlineValidatedForm
          id={formId}
          idPrefix={FORM_ID_PREFIX.answer}
          schema={schema}
          uiSchema={uiSchema}
          formContext={formContext}
          initialFormData={initial}
          live={attempted}
          transformErrors={transformErrors}
          onBlur={(id) => touched.current.add(fieldName(id, FORM_ID_PREFIX.answer))}
          onChange={onChange}
          onError={(errors) => setInvalidFields(countFields(errors))}
          onSubmit={onSubmit}
        />
      </div>
    </QuestionShell>
  );
}

function withoutFallback<P extends { fallback: string | null }>(props: P): Omit<P, 'fallback'> {
  const { fallback, ...rest } = props;
  void fallback;
  return rest;
}
