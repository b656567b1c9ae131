import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** `format: email`: a native email input (mobile keyboards, no autofill). */
export default function EmailWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  return <BaseInputTemplate {...props} type="email" />;
}
