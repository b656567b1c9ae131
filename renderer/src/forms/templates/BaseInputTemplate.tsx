import { useCallback, type ChangeEvent } from 'react';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { controlProps } from '../widgets/control-props';

/** The one native <input> behind every text-like widget (text, email, url, number, date, datetime-local). */
export default function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { value, required, disabled, readonly, onChange, onChangeOverride, options, schema, type, placeholder } = props;
  const numeric = schema.type === 'number' || schema.type === 'integer';
  // Always a native number input for numbers: it accepts the locale's decimal comma and hands over a dot.
  const inputType = type ?? (numeric ? 'number' : 'text');
  const rangeProps =
    inputType === 'number'
      ? { step: schema.type === 'integer' ? 1 : 'any', min: schema.minimum, max: schema.maximum }
      : {};
  const inputValue = inputType === 'number' ? (value || value === 0 ? value : '') : (value ?? '');

  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === '' ? options.emptyValue : e.target.value),
    [onChange, options.emptyValue],
  );

  return (
    <input
      {...controlProps<HTMLInputElement>(props, (el) => el.value)}
      className="input"
      type={inputType}
      value={inputValue}
      placeholder={placeholder || undefined}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoComplete="off"
      spellCheck={inputType === 'text'}
      {...rangeProps}
      onChange={onChangeOverride ?? handleChange}
    />
  );
}
