import { enumOptionsIsSelected, type WidgetProps } from '@rjsf/utils';
import ChoiceList from './ChoiceList';

/** A required single choice with few options: all visible, arrow keys move between them. */
export default function RadioWidget(props: WidgetProps) {
  const { value, required, onChange, options } = props;
  const choices = options.enumOptions ?? [];
  return (
    <ChoiceList
      widget={props}
      type="radio"
      required={required}
      isChecked={(v) => enumOptionsIsSelected(v, value)}
      onPick={(i) => onChange(choices[i]?.value)}
    />
  );
}
