import { enumOptionsDeselectValue, enumOptionsIsSelected, enumOptionsSelectValue, type WidgetProps } from '@rjsf/utils';
import ChoiceList from './ChoiceList';

/**
 * A multi-select: one checkbox per option; the answer keeps the options' order.
 * Unticking everything in an optional field leaves it out of the answer (an
 * empty list could break its minItems); a required one sends the empty list.
 */
export default function CheckboxesWidget(props: WidgetProps) {
  const { value, required, options } = props;
  const choices = options.enumOptions ?? [];
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const onChange = (next: unknown[]) => props.onChange(next.length === 0 && !required ? undefined : next);
  return (
    <ChoiceList
      widget={props}
      type="checkbox"
      isChecked={(v) => enumOptionsIsSelected(v, selected)}
      onPick={(i, checked) =>
        onChange(
          checked ? enumOptionsSelectValue(i, selected, choices) : enumOptionsDeselectValue(i, selected, choices),
        )
      }
    />
  );
}
