import { useCallback, type ChangeEvent } from 'react';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { themeContext } from '../form-context';
import { typesDates } from '../local-dates';
import TypedDateInput from './TypedDateInput';

/**
 * `format: date`: a native date picker, whose value is already the YYYY-MM-DD the schema wants; in a language the
 * picker would not follow (it shows the browser's order), the date typed in the language's own.
 */
export default function DateWidget(props: WidgetProps) {
  if (typesDates(themeContext(props.registry).language)) return <TypedDateInput {...props} withTime={false} />;
  return <NativeDate {...props} />;
}

function NativeDate(props: WidgetProps) {
  const { onChange, options } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, options);
  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value || options.emptyValue),
    [onChange, options.emptyValue],
  );
  return <BaseInputTemplate {...props} type="date" onChangeOverride={handleChange} />;
}
