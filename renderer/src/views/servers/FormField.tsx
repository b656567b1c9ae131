import type { ReactNode } from 'react';
import { useT } from '../../i18n/i18n-context';
import type { FieldError } from './server-form-model';

/** Props: the control's id (its hint and error ids derive from it), label, optional hint and error, and the control. */
export interface FormFieldProps {
  id: string;
  label: string;
  hint?: string;
  error?: FieldError;
  optional?: boolean;
  children: ReactNode;
}

/** The ids a control's aria-describedby should list. */
export function describedBy(id: string, hint: boolean, error: boolean): string | undefined {
  const ids = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** One labelled field with its hint and (host or local) error right under it. */
export default function FormField({ id, label, hint, error, optional, children }: FormFieldProps) {
  const t = useT();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && <span className="field-optional"> {t('form.optional')}</span>}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-errors">
          {'text' in error ? error.text : t(error.key, error.vars)}
        </p>
      )}
    </div>
  );
}
