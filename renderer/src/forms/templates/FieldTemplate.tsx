import { descriptionId, helpId, type FieldTemplateProps } from '@rjsf/utils';
import { fieldTexts } from '../field-aria';
import { themeContext } from '../form-context';
import RequiredMark from './RequiredMark';

// Widgets that are a group of native controls: labelled by a fieldset legend, not a <label>.
const GROUP_WIDGETS = new Set(['radio', 'checkboxes']);

/** One field: label (or legend), description, secret warning, control, hint and errors. */
export default function FieldTemplate(props: FieldTemplateProps) {
  const {
    id,
    label,
    children,
    errors,
    rawErrors,
    hidden,
    required,
    schema,
    uiSchema,
    registry,
    formData,
    fieldPathId,
  } = props;
  if (hidden) return <div hidden>{children}</div>;
  if (fieldPathId.path.length === 0) return children; // the root object: ObjectFieldTemplate lays out the fields

  const texts = fieldTexts({ id, schema, value: formData, rawErrors, registry });
  const { t } = themeContext(registry);
  const widget = uiSchema?.['ui:widget'];
  const invalid = texts.errors.length > 0;
  const className = `field${invalid ? ' field-invalid' : ''}${texts.secret ? ' field-secret' : ''}`;
  const details = (
    <>
      {(texts.description || texts.secret) && (
        <div id={descriptionId(id)} className="field-description">
          {texts.description && <p>{texts.description}</p>}
          {texts.secret && <p className="field-secret-warning">{t('form.secretField')}</p>}
        </div>
      )}
    </>
  );
  const hint = texts.hint ? (
    <p id={helpId(id)} className="field-hint">
      {texts.hint}
    </p>
  ) : null;

  if (typeof widget === 'string' && GROUP_WIDGETS.has(widget)) {
    return (
      <fieldset
        className={`${className} field-group`}
        aria-describedby={texts.describedBy}
        data-field={fieldPathId.path[0]}
      >
        <legend className="field-label">
          {label}
          {required && <RequiredMark registry={registry} spoken={widget === 'checkboxes'} />}
        </legend>
        {details}
        {children}
        {hint}
        {errors}
      </fieldset>
    );
  }
  // A checkbox carries its own label beside the box.
  const ownLabel = schema.type === 'boolean';
  return (
    <div className={className} data-field={fieldPathId.path[0]}>
      {!ownLabel && (
        <label className="field-label" htmlFor={id}>
          {label}
          {required && <RequiredMark registry={registry} />}
        </label>
      )}
      {ownLabel ? (
        <>
          {children}
          {details}
        </>
      ) : (
        <>
          {details}
          {children}
        </>
      )}
      {hint}
      {errors}
    </div>
  );
}
