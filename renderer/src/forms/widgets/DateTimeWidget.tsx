import { useCallback, type ChangeEvent } from 'react';
import { getTemplate, localToUTC, utcToLocal, type WidgetProps } from '@rjsf/utils';
import { themeContext } from '../form-context';
import { typesDates } from '../local-dates';
import TypedDateInput from './TypedDateInput';

/**
 * `format: date-time`: a native date-and-time picker in local time. The
 * answer is RFC 3339 in UTC (with the Z the format requires); the field hint
 * shows exactly what will be sent. In a language the picker would not follow, the moment is typed in that
 * language's order instead (TypedDateInput).
 */
export default function DateTimeWidget(props: WidgetProps) {
  if (typesDates(themeContext(props.registry).language)) return <TypedDateInput {...props} withTime />;
  return <NativeDateTime {...props} />;
}

function NativeDateTime(props: WidgetProps) {
  const { onChange, options, value } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, options);
  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value ? localToUTC(e.target.value) : options.emptyValue),
    [onChange, options.emptyValue],
  );
  // A value the server pre-filled that is not a date at all stays visible as an error rather than a blank picker.
  const local = typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? utcToLocal(value) : '';
  return <BaseInputTemplate {...props} type="datetime-local" value={local} onChangeOverride={handleChange} />;
}
