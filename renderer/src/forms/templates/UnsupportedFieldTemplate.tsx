import type { UnsupportedFieldProps } from '@rjsf/utils';
import { themeContext } from '../form-context';

/** Shown for a schema construct the form cannot draw (the host refuses such schemas; this is a safety net). */
export default function UnsupportedFieldTemplate({ registry }: UnsupportedFieldProps) {
  return <p className="field-unsupported">{themeContext(registry).t('form.unsupported')}</p>;
}
