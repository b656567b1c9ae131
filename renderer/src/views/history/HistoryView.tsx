import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RendererStores } from '../../app/stores';
import { colourOf } from '../../dialogs/server-identity';
import { KnownServersContext } from '../../dialogs/ServerBadge';
import { useT } from '../../i18n/i18n-context';
import type { HistoryItem } from '../../../../shared/history/items';
import type { HistoryVerifyView } from '../../../../shared/host-api/contract';
import { errorText } from '../../state/store';
import { useStore } from '../../state/use-store';
import ViewHeader from '../ViewHeader';
import { downloadLink, downloadText, exportMime } from './download';
import HistoryDetail from './HistoryDetail';
import HistoryFilters from './HistoryFilters';
import HistoryList from './HistoryList';
import { filterFromQuery, queryFromFilter, sameQuery, type HistoryFilterValues } from './history-format';

type VerifyState =
  { phase: 'idle' | 'running' } | { phase: 'done'; report: HistoryVerifyView } | { phase: 'failed'; error: string };

/** The hash chain's state, and the action that checks it again. */
function ChainState({ state, onVerify }: { state: VerifyState; onVerify: () => void }) {
  const t = useT();
  let text = t('history.chain.unchecked');
  let tone = 'banner-info';
  if (state.phase === 'running') text = t('history.chain.checking');
  else if (state.phase === 'failed') {
    text = t('history.chain.failed', { error: state.error });
    tone = 'banner-danger';
  } else if (state.phase === 'done' && state.report.ok) {
    text = t('history.chain.intact', { count: state.report.entries });
    tone = 'banner-info';
  } else if (state.phase === 'done') {
    const b = state.report.firstBreak;
    text = t('history.chain.broken', {
      count: state.report.entries,
      where: b ? `${b.file}:${b.line}${b.seq === undefined ? '' : ` (#${b.seq})`}` : '?',
      detail: b?.detail ?? '',
    });
    tone = 'banner-danger';
  }
  return (
    <div className={`banner history-chain ${tone}`.trim()}>
      <span role="status">{text}</span>{' '}
      <button
        type="button"
        className="button"
        onClick={onVerify}
        aria-disabled={state.phase === 'running' || undefined}
      >
        {t('history.chain.verify')}
      </button>
    </div>
  );
}

/** Props: the stores (the history store is activated when the view first shows). */
export interface HistoryViewProps {
  stores: Pick<RendererStores, 'history' | 'servers' | 'directory'>;
}

/** Typed search text is applied after this pause; other filters at once. */
const TEXT_DELAY_MS = 250;
/** Where to look for the selected entry again after a refresh moved it. */
const SEARCH_SPAN = 300;

/** Every question and answer on record, newest first: filters, a virtualised list, the detail of one, and export. */
export default function HistoryView({ stores }: HistoryViewProps) {
  const t = useT();
  const store = stores.history;
  const state = useStore(store);
  const { servers } = useStore(stores.servers);
  const { names } = useStore(stores.directory);
  const [values, setValues] = useState<HistoryFilterValues>(() => filterFromQuery(store.getState().query));
  const [active, setActive] = useState(-1);
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const [exporting, setExporting] = useState<'jsonl' | 'csv' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [verify, setVerify] = useState<VerifyState>({ phase: 'idle' });
  const known = useMemo(
    () => [...new Set([...servers.map((s) => s.name), ...names, ...state.servers])].sort(),
    [servers, names, state.servers],
  );

  useEffect(() => store.activate(), [store]);

  // Apply the filter (text after a pause); a new filter starts at the newest entry with nothing selected.
  const lastText = useRef(values.text);
  useEffect(() => {
    const query = queryFromFilter(values);
    if (sameQuery(query, store.getState().query)) return;
    const typed = values.text !== lastText.current;
    lastText.current = values.text;
    const timer = setTimeout(
      () => {
        store.setQuery(query);
        setActive(-1);
        setSelectedSeq(null);
      },
      typed ? TEXT_DELAY_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [values, store]);

  // New entries arrive on top: keep the same entry selected.
  const total = state.rows;
  const previous = useRef({ added: state.addedOnTop, query: state.query });
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = { added: state.addedOnTop, query: state.query };
    if (before.query === state.query && state.addedOnTop.id !== before.added.id && active >= 0)
      setActive((a) => a + state.addedOnTop.count);
  }, [state.addedOnTop, state.query, active]);
  useEffect(() => {
    if (selectedSeq === null || active < 0 || store.itemAt(active)?.seq === selectedSeq) return;
    for (let d = 1; d <= SEARCH_SPAN; d++) {
      for (const i of [active - d, active + d]) {
        if (i >= 0 && i < total && store.itemAt(i)?.seq === selectedSeq) return setActive(i);
      }
    }
  }, [state.version, selectedSeq, active, total, store]);

  const activate = (index: number) => {
    setActive(index);
    setSelectedSeq(store.itemAt(index)?.seq ?? null);
  };
  const shown = active >= 0 ? store.itemAt(active) : undefined;
  useEffect(() => {
    if (active >= 0 && !shown) store.ensureItem(active);
  }, [store, active, shown, state.version]);
  // The selection's item once its page is loaded (a click on a loading row selects it when it arrives).
  useEffect(() => {
    if (active >= 0 && selectedSeq === null && shown) setSelectedSeq(shown.seq);
  }, [active, selectedSeq, shown]);
  // While a refresh moves the selected entry, keep showing it rather than blinking to empty.
  const lastSelected = useRef<HistoryItem | null>(null);
  const found = shown && shown.seq === selectedSeq ? shown : null;
  if (found) lastSelected.current = found;
  const selected =
    found ?? (selectedSeq !== null && lastSelected.current?.seq === selectedSeq ? lastSelected.current : null);

  const save = async (format: 'jsonl' | 'csv') => {
    if (exporting) return;
    setExporting(format);
    setExportError(null);
    try {
      const result = await store.export(format);
      // The web shell streams big exports from a one-use link; elsewhere the host sends the text.
      if ('url' in result) downloadLink(result.url, result.filename);
      else downloadText(result.data, result.filename, exportMime(format));
    } catch (err) {
      setExportError(errorText(err));
    } finally {
      setExporting(null);
    }
  };

  const check = async () => {
    if (verify.phase === 'running') return;
    setVerify({ phase: 'running' });
    try {
      setVerify({ phase: 'done', report: await store.verify() });
    } catch (err) {
      setVerify({ phase: 'failed', error: errorText(err) });
    }
  };

  return (
    <div className="view view-history">
      <ViewHeader title={t('history.title')} lede={t('history.lede')}>
        <button
          type="button"
          className="button"
          onClick={() => void save('jsonl')}
          aria-disabled={exporting !== null || undefined}
        >
          {exporting === 'jsonl' ? t('history.exporting') : t('history.export.jsonl')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void save('csv')}
          aria-disabled={exporting !== null || undefined}
        >
          {exporting === 'csv' ? t('history.exporting') : t('history.export.csv')}
        </button>
      </ViewHeader>
      <ChainState state={verify} onVerify={() => void check()} />
      <HistoryFilters values={values} servers={known} onChange={setValues} />
      {exportError && (
        <p className="banner banner-danger" role="alert">
          {t('history.exportFailed', { error: exportError })}
        </p>
      )}
      {state.error && (
        <p className="banner banner-danger" role="alert">
          {t('history.loadError', { error: state.error })}
        </p>
      )}
      <p className="history-count" role="status">
        {state.total === null
          ? t('history.loading')
          : t(
              !state.complete
                ? 'history.count.atLeast'
                : state.total === 1
                  ? 'history.count.one'
                  : 'history.count.other',
              { count: state.total.toLocaleString() },
            )}
      </p>
      <div className="history-panes">
        {state.total === 0 && state.complete ? (
          <div className="history-list empty">
            <p className="empty-title">{t('history.empty')}</p>
            <p className="empty-hint">{t('history.emptyHint')}</p>
          </div>
        ) : (
          <HistoryList
            store={store}
            total={total}
            complete={state.complete}
            addedOnTop={state.addedOnTop}
            version={state.version}
            queryKey={state.query}
            active={active}
            onActivate={activate}
            label={t('history.listLabel')}
          />
        )}
        <KnownServersContext.Provider value={known}>
          <HistoryDetail item={selected} colourOf={(server) => colourOf(server, known)} />
        </KnownServersContext.Provider>
      </div>
    </div>
  );
}
