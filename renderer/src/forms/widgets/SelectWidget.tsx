import type { WidgetProps } from '@rjsf/utils';
import { themeContext } from '../form-context';
import { controlProps } from './control-props';

/** A single choice as a native select; an empty entry lets an optional choice be cleared. */
export default function SelectWidget(props: WidgetProps) {
  const { value, required, disabled, readonly, onChange, options, registry } = props;
  const { t } = themeContext(registry);
  const choices = options.enumOptions ?? [];
  const index = choices.findIndex((o) => o.value === value);
  const decode = (v: string) => (v === '' ? undefined : choices[Number(v)]?.value);
  return (
    <select
      {...controlProps<HTMLSelectElement>(props, (el) => decode(el.value))}
      className="input select"
      value={index >= 0 ? String(index) : ''}
      required={required}
      disabled={disabled || readonly}
      onChange={(e) => onChange(decode(e.target.value))}
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
