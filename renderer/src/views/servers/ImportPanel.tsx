import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { HostResults } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';
import { errorText } from '../../state/store';

/** Props: how an imported file's text reaches the host. */
export interface ImportButtonProps {
  onImport: (json: string) => Promise<HostResults['importServers']>;
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

/**
 * "Import from a file…": picks a Claude Desktop, Cursor or VS Code config, reads it here, and sends its text to the
 * host.
 */
export function ImportButton({ onImport, onResult }: ImportButtonProps) {
  const t = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const picked = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again later
    if (!file) return;
    setBusy(true);
    try {
      if (file.size > MAX_BYTES) throw new Error(t('servers.import.tooLarge'));
      const result = await onImport(await readFileText(file));
      onResult({ file: file.name, ok: true, ...result });
    } catch (err) {
      onResult({ file: file.name, ok: false, error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept=".json,.jsonc,application/json"
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
        aria-disabled={busy || undefined}
        onClick={() => !busy && inputRef.current?.click()}
      >
        {busy ? t('servers.import.reading') : t('servers.import.button')}
      </button>
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
