import { useCallback, type ChangeEvent, type FocusEvent } from 'react';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { fieldTexts } from '../field-aria';

/** The one native <input> behind every text-like widget (text, email, url, number, date, datetime-local). */
export default function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    htmlName,
    value,
    required,
    disabled,
    readonly,
    autofocus,
    onChange,
    onChangeOverride,
    onBlur,
    onFocus,
    options,
    schema,
    rawErrors,
    registry,
    type,
    placeholder,
  } = props;
  const numeric = schema.type === 'number' || schema.type === 'integer';
  // Always a native number input for numbers: it accepts the locale's decimal comma and hands over a dot.
  const inputType = type ?? (numeric ? 'number' : 'text');
  const texts = fieldTexts({ id, schema, value, rawErrors, registry });
  const rangeProps =
    inputType === 'number'
      ? { step: schema.type === 'integer' ? 1 : 'any', min: schema.minimum, max: schema.maximum }
      : {};
  const inputValue = inputType === 'number' ? (value || value === 0 ? value : '') : (value ?? '');

  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === '' ? options.emptyValue : e.target.value),
    [onChange, options.emptyValue],
  );
  const handleBlur = useCallback((e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value), [onBlur, id]);
  const handleFocus = useCallback((e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value), [onFocus, id]);

  return (
    <input
      id={id}
      name={htmlName || id}
      className="input"
      type={inputType}
      value={inputValue}
      placeholder={placeholder || undefined}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      autoComplete="off"
      spellCheck={inputType === 'text'}
      aria-invalid={texts.errors.length > 0 || undefined}
      aria-describedby={texts.describedBy}
      {...rangeProps}
      onChange={onChangeOverride ?? handleChange}
      onBlur={handleBlur}
      onFocus={handleFocus}
    />
  );
}
