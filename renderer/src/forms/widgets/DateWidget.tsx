import { useCallback, type ChangeEvent } from 'react';
import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** `format: date`: a native date picker; its value is already the YYYY-MM-DD the schema wants. */
export default function DateWidget(props: WidgetProps) {
  const { onChange, options } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, options);
  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value || options.emptyValue),
    [onChange, options.emptyValue],
  );
  return <BaseInputTemplate {...props} type="date" onChangeOverride={handleChange} />;
}
