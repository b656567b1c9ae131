import {
  enumOptionsDeselectValue,
  enumOptionsIsSelected,
  enumOptionsSelectValue,
  optionId,
  type WidgetProps,
} from '@rjsf/utils';

/**
 * A multi-select: one checkbox per option; the answer keeps the options' order.
 * Unticking everything in an optional field leaves it out of the answer (an
 * empty list could break its minItems); a required one sends the empty list.
 */
export default function CheckboxesWidget(props: WidgetProps) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, onBlur, onFocus, options } = props;
  const choices = options.enumOptions ?? [];
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const onChange = (next: unknown[]) => props.onChange(next.length === 0 && !required ? undefined : next);
  return (
    <div className="choices">
      {choices.map((option, i) => (
        <label className="choice" key={String(option.value)}>
          <input
            type="checkbox"
            id={optionId(id, i)}
            name={htmlName || id}
            value={String(i)}
            checked={enumOptionsIsSelected(option.value, selected)}
            disabled={disabled || readonly}
            autoFocus={autofocus && i === 0}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? enumOptionsSelectValue(i, selected, choices)
                  : enumOptionsDeselectValue(i, selected, choices),
              )
            }
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
