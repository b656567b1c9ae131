import type { WidgetProps } from '@rjsf/utils';
import RequiredMark from '../templates/RequiredMark';
import { controlProps } from './control-props';

/** A boolean: one checkbox with its label beside it. */
export default function CheckboxWidget(props: WidgetProps) {
  const { id, value, label, required, disabled, readonly, onChange, registry } = props;
  return (
    <div className="check">
      <input
        {...controlProps<HTMLInputElement>(props, (el) => el.checked)}
        type="checkbox"
        checked={value === true}
        disabled={disabled || readonly}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark registry={registry} spoken />}
      </label>
    </div>
  );
}
