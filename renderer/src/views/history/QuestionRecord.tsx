import { useId, useMemo } from 'react';
import { normaliseForForm } from '../../../../shared/elicitation/for-form';
import { secretFieldWarnings } from '../../../../shared/elicitation/secret-fields';
import MessageText from '../../dialogs/MessageText';
import ServerBadge from '../../dialogs/ServerBadge';
import UrlDisplay from '../../dialogs/UrlDisplay';
import { FORM_ID_PREFIX } from '../../forms/field-aria';
import { DEFAULTS_BEHAVIOUR } from '../../forms/InlineValidatedForm';
import type { ThemeContext } from '../../forms/form-context';
import { getFormValidator } from '../../forms/shared-validator';
import { ThemedForm } from '../../forms/theme';
import { buildUiSchema } from '../../forms/ui-schema';
import { useLanguage, useT } from '../../i18n/i18n-context';
import type { QuestionItem } from '../../../../shared/history/items';

/** Props: the recorded question (with its answer) and the server's badge colour. */
export interface QuestionRecordProps {
  item: QuestionItem;
  colour: number;
}

/**
 * The question as it was shown, read-only: the same header facts, the
 * server's message (plain text), and either the form (drawn by the dialogs'
 * theme, every field read-only, holding the accepted values when they were
 * recorded) or the link with its analysis and warnings.
 */
export default function QuestionRecord({ item, colour }: QuestionRecordProps) {
  const t = useT();
  const id = useId();
  const q = item.question;
  const kind =
    q.mode === 'url' ? 'url' : Object.keys(q.requestedSchema?.properties ?? {}).length === 0 ? 'confirm' : 'form';
  return (
    <section className="record" aria-labelledby={`${id}-title`}>
      <header className="record-header">
        <ServerBadge server={q.server.name} colour={colour} />
        <div className="dialog-heading">
          <h3 id={`${id}-title`} className="record-title">
            {t(`history.title.${kind}`, { server: q.server.name })}
          </h3>
          <p className="origin">
            {q.call.method && q.call.name ? (
              <>
                <span className="origin-kind">{t(`origin.${q.call.method}`)}</span>{' '}
                <span className="origin-name">{q.call.name}</span>
              </>
            ) : (
              <span className="origin-kind">{t('origin.noCall')}</span>
            )}
            {q.round > 1 && <span className="origin-round">{t('origin.round', { round: q.round })}</span>}
            <span className="origin-era">{t(`servers.era.${q.server.era}`)}</span>
          </p>
          {q.call.agent && (
            <p className="origin-agent" dir="auto">
              {t('origin.agent', { agent: q.call.agent })}
            </p>
          )}
          {q.call.reportedBy === 'gateway' && (
            // As in the dialog: the app did not see this server or call itself, these labels are the gateway's word.
            <p className="origin-reported">{t('origin.reportedByGateway')}</p>
          )}
          {q.call.argumentsSummary && (
            <p className="origin-args record-args" dir="auto">
              <span className="visually-hidden">{t('origin.arguments')}: </span>
              {q.call.argumentsSummary}
            </p>
          )}
        </div>
      </header>
      <div className="record-body">
        <MessageText id={`${id}-message`} message={q.message} />
        {kind === 'form' && q.requestedSchema && <RecordedForm item={item} />}
        {kind === 'url' && q.url && <UrlDisplay analysis={q.url} allowCopy={!q.url.blocked} />}
      </div>
    </section>
  );
}

function RecordedForm({ item }: { item: QuestionItem }) {
  const t = useT();
  const requested = item.question.requestedSchema!;
  const accepted = item.answer?.action === 'accept';
  // Defaults only for a form that was not sent (that is how it was shown): for
  // an accepted one RJSF would fill them into fields the human had emptied,
  // or into every field of a redacted answer, as if they had been sent.
  const schema = useMemo(() => {
    const form = normaliseForForm(requested);
    if (accepted) for (const field of Object.values(form.properties)) delete field.default;
    return form;
  }, [requested, accepted]);
  const fieldOrder = item.question.fieldOrder;
  // Show the fields in the order the human saw them, not the journal's sorted order.
  const uiSchema = useMemo(
    () => ({ ...buildUiSchema(schema), ...(fieldOrder ? { 'ui:order': [...fieldOrder, '*'] } : {}) }),
    [schema, fieldOrder],
  );
  const secrets = useMemo(() => secretFieldWarnings(requested), [requested]);
  const language = useLanguage();
  const formContext = useMemo<ThemeContext>(
    () => ({ t, language, secretFields: new Set(secrets) }),
    [t, language, secrets],
  );
  const content = accepted ? item.answer?.content : undefined;
  const note = !accepted
    ? t('history.form.notSent')
    : item.answer?.redacted
      ? t('history.form.redacted')
      : t('history.form.sent');
  return (
    <div className="record-form">
      <p className="record-form-note">{note}</p>
      <ThemedForm
        idPrefix={FORM_ID_PREFIX.record}
        schema={schema}
        uiSchema={uiSchema}
        validator={getFormValidator()}
        formContext={formContext}
        formData={content ?? {}}
        readonly
        noValidate
        showErrorList={false}
        experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
        tagName="div"
      />
    </div>
  );
}
