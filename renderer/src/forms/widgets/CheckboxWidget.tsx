import type { WidgetProps } from '@rjsf/utils';
import { fieldTexts } from '../field-aria';
import RequiredMark from '../templates/RequiredMark';

/** A boolean: one checkbox with its label beside it. */
export default function CheckboxWidget(props: WidgetProps) {
  const {
    id,
    htmlName,
    value,
    label,
    required,
    disabled,
    readonly,
    autofocus,
    onChange,
    onBlur,
    onFocus,
    schema,
    rawErrors,
    registry,
  } = props;
  const texts = fieldTexts({ id, schema, value, rawErrors, registry });
  return (
    <div className="check">
      <input
        type="checkbox"
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-invalid={texts.errors.length > 0 || undefined}
        aria-describedby={texts.describedBy}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={(e) => onBlur(id, e.target.checked)}
        onFocus={(e) => onFocus(id, e.target.checked)}
      />
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark registry={registry} spoken />}
      </label>
    </div>
  );
}
