import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** Plain text, and numbers (RJSF routes number and integer fields here). */
export default function TextWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  return <BaseInputTemplate {...props} />;
}
