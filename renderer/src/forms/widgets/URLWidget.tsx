import { getTemplate, type WidgetProps } from '@rjsf/utils';

/**
 * A complete address typed with a raw non-ASCII character ("https://example.com/ü")
 * is what the URL parser encodes: written that way it is a valid `uri`. Done
 * on leaving the field, so the text does not change under the caret.
 */
export function encodeTypedUrl(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  const trimmed = value.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\/\S/i.test(trimmed) || !URL.canParse(trimmed)) return value;
  return new URL(trimmed).href;
}

/** `format: uri`: a native url input. What is typed stays text; nothing is opened or fetched. */
export default function URLWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  const { onBlur, onChange } = props;
  const blur = (id: string, value: unknown) => {
    const encoded = typeof value === 'string' ? encodeTypedUrl(value) : value;
    if (encoded !== value) onChange(encoded);
    onBlur(id, encoded);
  };
  return <BaseInputTemplate {...props} type="url" onBlur={blur} />;
}
