import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ServerEntry } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';
import FormField, { describedBy } from './FormField';
import { fieldOfHostError } from './host-error-field';
import { entryFromForm, type ServerFormErrors, type ServerFormField, type ServerFormValues } from './server-form-model';

/** Props: the values to start from, whether this adds or edits, and what saving does. */
export interface ServerFormProps {
  initial: ServerFormValues;
  mode: 'add' | 'edit';
  /** Sends the entry to the host; a rejection is shown next to the field it names. */
  onSave: (name: string, entry: ServerEntry) => Promise<void>;
  onCancel: () => void;
}

const ORDER: readonly ServerFormField[] = ['name', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers'];

/**
 * Adds or edits one server in the mcpServers shape: a program started over
 * stdio (command, arguments, environment, working folder) or an HTTP server
 * (URL, headers). Local mistakes are caught here; the host checks the rest
 * and its messages appear next to the field they name.
 */
export default function ServerForm({ initial, mode, onSave, onCancel }: ServerFormProps) {
  const t = useT();
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ServerFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Bumped on each failed save: focus then moves to the first field to fix (never while typing).
  const [failedSaves, setFailedSaves] = useState(0);
  const root = useRef<HTMLFormElement>(null);
  const fid = (f: ServerFormField) => `${id}-${f}`;

  useEffect(() => {
    // When the form opens: on its first field to fill.
    const first = mode === 'add' ? 'name' : initial.transport === 'stdio' ? 'command' : 'url';
    root.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
  }, [mode, initial.transport]);

  useEffect(() => {
    if (failedSaves === 0) return;
    const first = ORDER.find((f) => errors[f]);
    if (first) root.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
    // Only after a failed save, not whenever an error is cleared by typing.
  }, [failedSaves]);

  const change = <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors(({ [key as ServerFormField]: _gone, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setFormError(null);
    const parsed = entryFromForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setFailedSaves((n) => n + 1);
      return;
    }
    setSaving(true);
    try {
      await onSave(parsed.name, parsed.entry);
    } catch (err) {
      const { field, text } = fieldOfHostError(err);
      if (field) setErrors({ [field]: { text } });
      else setFormError(text);
      setFailedSaves((n) => n + 1);
      setSaving(false);
    }
  };

  const input = (field: ServerFormField, extra: { placeholder?: string; hint?: boolean } = {}) => ({
    id: fid(field),
    'data-field': field,
    className: 'input',
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy(fid(field), extra.hint ?? false, Boolean(errors[field])),
    spellCheck: false,
    autoComplete: 'off',
    ...(extra.placeholder ? { placeholder: extra.placeholder } : {}),
  });

  const titleId = `${id}-title`;
  return (
    <form ref={root} className="card server-form" aria-labelledby={titleId} onSubmit={(e) => void submit(e)} noValidate>
      <h3 id={titleId} className="card-title">
        {mode === 'add' ? t('servers.form.addTitle') : t('servers.form.editTitle', { name: initial.name })}
      </h3>
      <div className="form-grid">
        <FormField
          id={fid('name')}
          label={t('servers.field.name')}
          hint={mode === 'edit' ? t('servers.hint.nameFixed') : t('servers.hint.name')}
          error={errors.name}
        >
          <input
            {...input('name', { hint: true })}
            value={values.name}
            readOnly={mode === 'edit'}
            onChange={(e) => change('name', e.target.value)}
          />
        </FormField>

        <fieldset
          className={`field field-group${errors.transport ? ' field-invalid' : ''}`}
          aria-describedby={errors.transport ? `${fid('transport')}-error` : undefined}
        >
          <legend className="field-label">{t('servers.field.transport')}</legend>
          <div className="choices">
            {(['stdio', 'http'] as const).map((kind, i) => (
              <label className="choice" key={kind}>
                <input
                  type="radio"
                  name={fid('transport')}
                  value={kind}
                  data-field={i === 0 ? 'transport' : undefined}
                  checked={values.transport === kind}
                  onChange={() => change('transport', kind)}
                />
                <span>{t(`servers.transport.${kind}`)}</span>
              </label>
            ))}
          </div>
          {errors.transport && (
            <p id={`${fid('transport')}-error`} className="field-errors">
              {'text' in errors.transport ? errors.transport.text : t(errors.transport.key, errors.transport.vars)}
            </p>
          )}
        </fieldset>

        {values.transport === 'stdio' ? (
          <>
            <FormField
              id={fid('command')}
              label={t('servers.field.command')}
              hint={t('servers.hint.command')}
              error={errors.command}
            >
              <input
                {...input('command', { hint: true, placeholder: 'npx' })}
                className="input mono"
                value={values.command}
                onChange={(e) => change('command', e.target.value)}
              />
            </FormField>
            <FormField
              id={fid('args')}
              label={t('servers.field.args')}
              hint={t('servers.hint.args')}
              error={errors.args}
              optional
            >
              <textarea
                {...input('args', {
                  hint: true,
                  placeholder: '-y\n@modelcontextprotocol/server-filesystem\n~/Documents',
                })}
                className="input textarea mono"
                rows={3}
                value={values.args}
                onChange={(e) => change('args', e.target.value)}
              />
            </FormField>
            <FormField
              id={fid('env')}
              label={t('servers.field.env')}
              hint={t('servers.hint.env')}
              error={errors.env}
              optional
            >
              <textarea
                {...input('env', { hint: true, placeholder: 'LOG_LEVEL=info' })}
                className="input textarea mono"
                rows={2}
                value={values.env}
                onChange={(e) => change('env', e.target.value)}
              />
            </FormField>
            <FormField id={fid('cwd')} label={t('servers.field.cwd')} error={errors.cwd} optional>
              <input
                {...input('cwd')}
                className="input mono"
                value={values.cwd}
                onChange={(e) => change('cwd', e.target.value)}
              />
            </FormField>
          </>
        ) : (
          <>
            <FormField id={fid('url')} label={t('servers.field.url')} hint={t('servers.hint.url')} error={errors.url}>
              <input
                {...input('url', { hint: true, placeholder: 'https://mcp.example.com/mcp' })}
                className="input mono"
                type="url"
                value={values.url}
                onChange={(e) => change('url', e.target.value)}
              />
            </FormField>
            <FormField
              id={fid('headers')}
              label={t('servers.field.headers')}
              hint={t('servers.hint.headers')}
              error={errors.headers}
              optional
            >
              <textarea
                {...input('headers', { hint: true, placeholder: 'Authorization: Bearer …' })}
                className="input textarea mono"
                rows={2}
                value={values.headers}
                onChange={(e) => change('headers', e.target.value)}
              />
            </FormField>
          </>
        )}
      </div>
      {formError && (
        <p className="banner banner-danger" role="alert">
          {formError}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('action.cancel')}
        </button>
        <button type="submit" className="button button-primary" aria-disabled={saving || undefined}>
          {saving ? t('servers.form.saving') : mode === 'add' ? t('servers.form.add') : t('servers.form.save')}
        </button>
      </div>
    </form>
  );
}
