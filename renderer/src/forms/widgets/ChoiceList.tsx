import { optionId, type WidgetProps } from '@rjsf/utils';

/** Props: the widget's own, the kind of input per option, which are ticked, and what a tick does. */
export interface ChoiceListProps {
  widget: WidgetProps;
  type: 'radio' | 'checkbox';
  isChecked: (value: unknown) => boolean;
  /** The option at `index` was ticked (`checked`) or unticked. */
  onPick: (index: number, checked: boolean) => void;
  /** The native `required` on every input (a radio group's; never on checkboxes, where it would mean "tick all"). */
  required?: boolean;
}

/** One labelled input per option, all visible; blur and focus report the field's whole value. */
export default function ChoiceList({ widget, type, isChecked, onPick, required }: ChoiceListProps) {
  const { id, htmlName, value, disabled, readonly, autofocus, onBlur, onFocus, options } = widget;
  const choices = options.enumOptions ?? [];
  return (
    <div className="choices">
      {choices.map((option, i) => (
        <label className="choice" key={String(option.value)}>
          <input
            type={type}
            id={optionId(id, i)}
            name={htmlName || id}
            value={String(i)}
            checked={isChecked(option.value)}
            required={required}
            disabled={disabled || readonly}
            autoFocus={autofocus && i === 0}
            onChange={(e) => onPick(i, e.target.checked)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
