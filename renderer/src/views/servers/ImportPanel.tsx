import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { HostResults } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';
import { errorText } from '../../state/store';
import ImportReview from './ImportReview';

type ImportResult = HostResults['importServers'];

/** Props: how an imported file's text reaches the host (a dry run first, then the servers the person agreed to). */
export interface ImportButtonProps {
  onPlan: (text: string, fileName: string) => Promise<ImportResult>;
  onImport: (
    text: string,
    fileName: string,
    names: readonly string[],
    inputs: Readonly<Record<string, string>>,
  ) => Promise<ImportResult>;
  onResult: (result: ImportOutcome) => void;
}

/** What an import did, as the view reports it. */
export type ImportOutcome = { file: string } & (
  { ok: true; imported: string[]; skipped: Array<{ name: string; reason: string }> } | { ok: false; error: string }
);

/** Reads a file with FileReader (the renderer has no file system access of its own). */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}

/** Largest config file accepted (the host's limit is 5 MB of text). */
const MAX_BYTES = 5_000_000;

/** The config files the host reads: JSON and JSONC (Claude, Cursor, VS Code), Codex TOML, Goose YAML. */
const ACCEPTED = '.json,.jsonc,.toml,.yaml,.yml,application/json';

/** A file read and planned, waiting for the person's review. */
interface Pending {
  file: string;
  text: string;
  plan: ImportResult;
}

/**
 * "Import from a file…": picks another agent's config, reads it here, and asks the host what it would add (a dry
 * run). The review shows what each server will run; only its Add imports, and nothing starts before that.
 */
export function ImportButton({ onPlan, onImport, onResult }: ImportButtonProps) {
  const t = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);

  const picked = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again later
    if (!file) return;
    setBusy(true);
    try {
      if (file.size > MAX_BYTES) throw new Error(t('servers.import.tooLarge'));
      const text = await readFileText(file);
      const plan = await onPlan(text, file.name);
      // Nothing to add: no review to agree to, only the report of what was skipped.
      if (plan.plan.length === 0) onResult({ file: file.name, ok: true, imported: [], skipped: plan.skipped });
      else setPending({ file: file.name, text, plan });
    } catch (err) {
      onResult({ file: file.name, ok: false, error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const add = async (names: readonly string[], inputs: Readonly<Record<string, string>>) => {
    const { file, text } = pending!;
    const result = await onImport(text, file, names, inputs);
    setPending(null);
    onResult({ file, ok: true, imported: result.imported, skipped: result.skipped });
  };

  return (
    <>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={ACCEPTED}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="import-file"
        onChange={(e) => void picked(e)}
      />
      <button
        type="button"
        className="button"
        title={t('servers.import.title')}
        aria-disabled={busy || pending !== null || undefined}
        onClick={() => !busy && !pending && inputRef.current?.click()}
      >
        {busy ? t('servers.import.reading') : t('servers.import.button')}
      </button>
      {pending && (
        <ImportReview file={pending.file} plan={pending.plan} onAdd={add} onCancel={() => setPending(null)} />
      )}
    </>
  );
}

/** Props: the outcome to report and how to close the report. */
export interface ImportReportProps {
  outcome: ImportOutcome;
  onClose: () => void;
}

/** What an import did: the servers added and those skipped, each with its reason. */
export function ImportReport({ outcome, onClose }: ImportReportProps) {
  const t = useT();
  const id = useId();
  return (
    <section className={`card import-report${outcome.ok ? '' : ' import-failed'}`} aria-labelledby={id} role="status">
      <div className="card-head">
        <h3 id={id} className="card-title">
          {t('servers.import.reportTitle', { file: outcome.file })}
        </h3>
        <button type="button" className="button button-small" onClick={onClose}>
          {t('action.dismiss')}
        </button>
      </div>
      {!outcome.ok ? (
        <p className="import-error">{outcome.error}</p>
      ) : (
        <>
          <p>
            {outcome.imported.length === 0
              ? t('servers.import.none')
              : t(outcome.imported.length === 1 ? 'servers.import.imported.one' : 'servers.import.imported.other', {
                  count: outcome.imported.length,
                  names: outcome.imported.join(', '),
                })}
          </p>
          {outcome.skipped.length > 0 && (
            <>
              <p className="import-skipped-title">{t('servers.import.skipped', { count: outcome.skipped.length })}</p>
              <ul className="import-skipped">
                {outcome.skipped.map((s) => (
                  <li key={s.name}>
                    <span className="mono">{s.name}</span>: {s.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
