import { enumOptionsIsSelected, optionId, type WidgetProps } from '@rjsf/utils';

/** A required single choice with few options: all visible, arrow keys move between them. */
export default function RadioWidget(props: WidgetProps) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, options } = props;
  const choices = options.enumOptions ?? [];
  return (
    <div className="choices">
      {choices.map((option, i) => (
        <label className="choice" key={String(option.value)}>
          <input
            type="radio"
            id={optionId(id, i)}
            name={htmlName || id}
            value={String(i)}
            checked={enumOptionsIsSelected(option.value, value)}
            required={required}
            disabled={disabled || readonly}
            autoFocus={autofocus && i === 0}
            onChange={() => onChange(option.value)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
