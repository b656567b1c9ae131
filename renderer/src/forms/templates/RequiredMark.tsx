import { themeContext } from '../form-context';
import type { Registry } from '@rjsf/utils';

/** The asterisk after a required field's label; `spoken` adds the word for controls that cannot carry `required`. */
export default function RequiredMark({
  registry,
  spoken = false,
}: {
  registry: Pick<Registry, 'formContext'>;
  spoken?: boolean;
}) {
  const { t } = themeContext(registry);
  return (
    <span className="required-mark">
      <span aria-hidden="true">*</span>
      {spoken && <span className="visually-hidden"> ({t('form.required')})</span>}
    </span>
  );
}
