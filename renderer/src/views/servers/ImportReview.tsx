// The review step of an import: what each server in another agent's config
// will run, before anything is written or started. Every string here comes
// from a config file and is shown as plain text (never a link, never markup).
// Values typed for `${input:…}` live only in this dialog's state: they go to
// the host once, with Add, and leave with the dialog.
import { useId, useState } from 'react';
import type { HostResults } from '../../../../shared/host-api/contract';
import type { ImportPlanItem } from '../../../../shared/config/server-entry';
import DeliberateButton from '../../dialogs/DeliberateButton';
import DialogFrame from '../../dialogs/DialogFrame';
import { useT } from '../../i18n/i18n-context';
import { errorText } from '../../state/store';

/** Props: the file, the host's dry run of it, and what Add and Cancel do. */
export interface ImportReviewProps {
  file: string;
  plan: HostResults['importServers'];
  /** Imports the checked servers with the typed values; a failure keeps the dialog open and says why. */
  onAdd: (names: readonly string[], inputs: Readonly<Record<string, string>>) => Promise<void>;
  /** Nothing is written. */
  onCancel: () => void;
}

/** The modal review: servers with checkboxes (all checked), what was skipped, the inputs to fill, Add and Cancel. */
export default function ImportReview({ file, plan, onAdd, onCancel }: ImportReviewProps) {
  const t = useT();
  const id = useId();
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set(plan.plan.map((p) => p.name)));
  const [values, setValues] = useState<Readonly<Record<string, string>>>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const names = plan.plan.map((p) => p.name).filter((n) => checked.has(n));
  const toggle = (name: string, on: boolean) =>
    setChecked((before) => {
      const next = new Set(before);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  const add = async () => {
    if (sending || names.length === 0) return;
    // An empty field is not a value: the server is added and says it still needs one.
    const typed = Object.fromEntries(plan.inputs.flatMap((i) => (values[i.id] ? [[i.id, values[i.id]!]] : [])));
    setSending(true);
    setFailure(null);
    try {
      await onAdd(names, typed);
    } catch (err) {
      setFailure(errorText(err));
      setSending(false);
    }
  };

  return (
    <DialogFrame
      questionId="import-review"
      kind="confirm"
      labelledBy={`${id}-title`}
      describedBy={`${id}-lede`}
      onCancel={() => !sending && onCancel()}
    >
      <header className="dialog-header">
        <div className="dialog-heading">
          <h2 id={`${id}-title`} className="dialog-title">
            {t('servers.import.review.title', { file })}
          </h2>
        </div>
      </header>
      <div className="dialog-body import-review">
        <p id={`${id}-lede`}>{t('servers.import.review.lede')}</p>
        <ul className="import-plan" aria-label={t('servers.import.review.listLabel')}>
          {plan.plan.map((item) => (
            <PlanItem
              key={item.name}
              item={item}
              checked={checked.has(item.name)}
              onToggle={(on) => toggle(item.name, on)}
            />
          ))}
        </ul>
        {plan.inputs.length > 0 && (
          <fieldset className="import-inputs">
            <legend className="field-label">{t('servers.import.review.inputsTitle')}</legend>
            {plan.inputs.map((input) => (
              <div key={input.id} className="field">
                <label className="field-label" htmlFor={`${id}-input-${input.id}`} dir="auto">
                  {input.description}
                </label>
                <input
                  id={`${id}-input-${input.id}`}
                  className="input"
                  type={input.password ? 'password' : 'text'}
                  autoComplete="off"
                  spellCheck={false}
                  aria-describedby={`${id}-input-${input.id}-hint`}
                  value={values[input.id] ?? ''}
                  onChange={(e) => setValues((before) => ({ ...before, [input.id]: e.target.value }))}
                />
                <p id={`${id}-input-${input.id}-hint`} className="field-hint">
                  {t(input.password ? 'servers.import.review.secretHint' : 'servers.import.review.inputHint', {
                    id: input.id,
                  })}
                </p>
              </div>
            ))}
          </fieldset>
        )}
        {plan.skipped.length > 0 && (
          <div>
            <p className="import-skipped-title">{t('servers.import.review.skipped', { count: plan.skipped.length })}</p>
            <ul className="import-skipped">
              {plan.skipped.map((s) => (
                <li key={s.name} dir="auto">
                  <span className="mono">{s.name}</span>: {s.reason}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <footer className="dialog-footer">
        <div className="footer-status">
          {failure ? (
            <p role="alert" className="status-error">
              {t('servers.import.review.failed', { error: failure })}
            </p>
          ) : (
            <p role="status" className="status-hint">
              {sending ? t('servers.import.review.adding') : t('servers.import.review.escHint')}
            </p>
          )}
        </div>
        <div className="actions">
          <button type="button" className="button" disabled={sending} onClick={onCancel}>
            {t('action.cancel')}
          </button>
          <DeliberateButton
            className="button button-primary"
            busy={sending || names.length === 0}
            onActivate={() => void add()}
          >
            {t(names.length === 1 ? 'servers.import.review.add.one' : 'servers.import.review.add.other', {
              count: names.length,
            })}
          </DeliberateButton>
        </div>
      </footer>
    </DialogFrame>
  );
}

/** One server of the plan: its checkbox, what it runs, the names of its hidden values, and what it still needs. */
function PlanItem({
  item,
  checked,
  onToggle,
}: {
  item: ImportPlanItem;
  checked: boolean;
  onToggle: (on: boolean) => void;
}) {
  const t = useT();
  const stdio = 'command' in item.entry;
  const hidden = Object.keys(('command' in item.entry ? item.entry.env : item.entry.headers) ?? {});
  return (
    <li className="import-plan-item" data-server={item.name}>
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(e) => onToggle(e.target.checked)} />
        <span className="mono">{item.name}</span>
      </label>
      <p className="import-runs">
        <span className="server-transport">
          {t(stdio ? 'servers.import.review.runs' : 'servers.import.review.connects')}
        </span>{' '}
        <code className="mono" dir="auto">
          {item.runs}
        </code>
      </p>
      {hidden.length > 0 && (
        <p className="import-hidden" dir="auto">
          {t(stdio ? 'servers.import.review.env' : 'servers.import.review.headers', { names: hidden.join(', ') })}
        </p>
      )}
      {item.needs.length > 0 && (
        <div className="import-needs">
          <p>{t('servers.import.review.needs')}</p>
          <ul>
            {item.needs.map((need) => (
              <li key={need} className="mono" dir="auto">
                {need}
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}
