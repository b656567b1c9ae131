import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFValidationError } from '@rjsf/utils';
import { fieldOf, localiseErrors } from '../../forms/error-messages';
import { FORM_ID_PREFIX } from '../../forms/field-aria';
import type { ThemeContext } from '../../forms/form-context';
import InlineValidatedForm from '../../forms/InlineValidatedForm';
import { useLanguage, useT } from '../../i18n/i18n-context';
import { argsFromFormData, parseJsonArgs, planArgs, skeletonArgs } from './tool-schema';

type Json = Record<string, unknown>;

/** Props: the tool's input schema, and what a valid set of arguments does. */
export interface ToolArgsFormProps {
  toolName: string;
  inputSchema: Record<string, unknown>;
  onCall: (args: Json) => void;
  /** True while a call of this tool is being started (the button reads so). */
  starting: boolean;
  /** Move focus to the first field (or the Call button) when drawn: the human just picked this tool. */
  focusOnMount?: boolean;
}

const NO_SECRETS: ReadonlySet<string> = new Set();
/** Inputs whose Enter means something of their own. */
const ONE_LINE_SKIP: ReadonlySet<string> = new Set(['button', 'submit', 'reset', 'file', 'image']);

/**
 * The arguments of a tool call: its input schema drawn as a form with the
 * dialogs' theme where the schema allows, else (or on request) a JSON editor.
 * Enter in a one-line field calls the tool as the Call button would (so the
 * same checks run); in a multi-line field it is a new line.
 */
export default function ToolArgsForm({ toolName, inputSchema, onCall, starting, focusOnMount }: ToolArgsFormProps) {
  const t = useT();
  const formId = useId();
  const jsonId = useId();
  const plan = useMemo(() => planArgs(inputSchema), [inputSchema]);
  const [asJson, setAsJson] = useState(plan.kind === 'json');
  const [json, setJson] = useState(() => JSON.stringify(skeletonArgs(inputSchema), null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [formData, setFormData] = useState<Json>({});
  const attempted = useRef(false);
  const [live, setLive] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const callButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusOnMount || !root.current) return;
    const first = root.current.querySelector<HTMLElement>('input, select, textarea');
    (first ?? callButton.current)?.focus();
    // Only when first drawn: later renders must not pull focus back.
  }, []);
  const language = useLanguage();
  const formContext = useMemo<ThemeContext>(() => ({ t, language, secretFields: NO_SECRETS }), [t, language]);
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => {
      const out = localiseErrors(errors, t);
      return attempted.current ? out : out.filter((e) => fieldOf(e.property) === '');
    },
    [t],
  );

  const submitJson = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseJsonArgs(json);
    if (!parsed.ok)
      return setJsonError(
        parsed.error === 'syntax' ? t('tools.json.syntax', { detail: parsed.detail ?? '' }) : t('tools.json.notObject'),
      );
    setJsonError(null);
    onCall(parsed.args);
  };
  // Enter in a one-line field goes through the Call button, so a call already
  // starting is not started twice and errors show as for a click.
  const enterCalls = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    if (target.tagName !== 'INPUT' || ONE_LINE_SKIP.has((target as HTMLInputElement).type)) return;
    e.preventDefault();
    // Enter is leaving the field, then Call: what a field does when left (an
    // address with a raw "ü" is encoded) is queued before the submit, which
    // RJSF applies in order, so the call sees it.
    target.blur();
    target.focus();
    callButton.current?.click();
  };
  const switchMode = () => {
    if (!asJson && plan.kind === 'form')
      setJson(JSON.stringify({ ...skeletonArgs(inputSchema), ...argsFromFormData(plan.schema, formData) }, null, 2));
    if (asJson && plan.kind === 'form') {
      const parsed = parseJsonArgs(json);
      if (parsed.ok) setFormData(parsed.args);
    }
    setJsonError(null);
    setAsJson(!asJson);
  };

  const callLabel = starting ? t('tools.starting') : t('tools.call', { tool: toolName });
  return (
    <div className="tool-args" ref={root}>
      {plan.kind === 'json' && <p className="banner banner-info">{t('tools.json.why', { reason: plan.reason })}</p>}
      {asJson ? (
        <form id={formId} className="json-args" onSubmit={submitJson} noValidate>
          <label className="field-label" htmlFor={jsonId}>
            {t('tools.json.label')}
          </label>
          <textarea
            id={jsonId}
            className="input textarea mono"
            rows={Math.min(14, Math.max(4, json.split('\n').length + 1))}
            spellCheck={false}
            value={json}
            aria-invalid={jsonError ? true : undefined}
            aria-describedby={jsonError ? `${jsonId}-error` : undefined}
            onChange={(e) => setJson(e.target.value)}
          />
          {jsonError && (
            <p id={`${jsonId}-error`} className="field-errors">
              {jsonError}
            </p>
          )}
        </form>
      ) : plan.kind === 'form' ? (
        <div onKeyDownCapture={enterCalls}>
          <InlineValidatedForm
            id={formId}
            idPrefix={FORM_ID_PREFIX.toolArgs}
            schema={plan.schema}
            uiSchema={plan.uiSchema}
            formContext={formContext}
            formData={formData}
            live={live}
            transformErrors={transformErrors}
            onChange={(e: IChangeEvent<Json>) => setFormData(e.formData ?? {})}
            onError={() => setLive(true)}
            onSubmit={(e: IChangeEvent<Json>) => onCall(argsFromFormData(plan.schema, e.formData))}
          />
        </div>
      ) : (
        <form
          id={formId}
          onSubmit={(e) => {
            e.preventDefault();
            onCall({});
          }}
        >
          <p className="muted">{t('tools.noArgs')}</p>
        </form>
      )}
      <div className="form-actions form-actions-start">
        <button
          ref={callButton}
          type="submit"
          form={formId}
          className="button button-primary"
          aria-disabled={starting || undefined}
          onClick={(e) => {
            attempted.current = true;
            if (starting) e.preventDefault();
          }}
        >
          {callLabel}
        </button>
        {plan.kind !== 'json' && (
          <button type="button" className="button button-link" onClick={switchMode}>
            {asJson ? t('tools.json.useForm') : t('tools.json.edit')}
          </button>
        )}
      </div>
    </div>
  );
}
