import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** `format: uri`: a native url input. What is typed stays text; nothing is opened or fetched. */
export default function URLWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  return <BaseInputTemplate {...props} type="url" />;
}
