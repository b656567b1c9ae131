import type { WidgetProps } from '@rjsf/utils';
import { fieldTexts } from '../field-aria';
import { themeContext } from '../form-context';

/** A single choice as a native select; an empty entry lets an optional choice be cleared. */
export default function SelectWidget(props: WidgetProps) {
  const {
    id,
    htmlName,
    value,
    required,
    disabled,
    readonly,
    autofocus,
    onChange,
    onBlur,
    onFocus,
    options,
    schema,
    rawErrors,
    registry,
  } = props;
  const { t } = themeContext(registry);
  const choices = options.enumOptions ?? [];
  const texts = fieldTexts({ id, schema, value, rawErrors, registry });
  const index = choices.findIndex((o) => o.value === value);
  const decode = (v: string) => (v === '' ? undefined : choices[Number(v)]?.value);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="input select"
      value={index >= 0 ? String(index) : ''}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-invalid={texts.errors.length > 0 || undefined}
      aria-describedby={texts.describedBy}
      onChange={(e) => onChange(decode(e.target.value))}
      onBlur={(e) => onBlur(id, decode(e.target.value))}
      onFocus={(e) => onFocus(id, decode(e.target.value))}
    >
      {(index < 0 || !required) && <option value="">{required ? t('form.choose') : t('form.none')}</option>}
      {choices.map((o, i) => (
        <option key={String(o.value)} value={String(i)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
