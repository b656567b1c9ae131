import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLanguage, useT } from '../../i18n/i18n-context';
import type { HistoryQuery, HistoryStore } from '../../state/history-store';
import type { HistoryItem } from '../../../../shared/history/items';
import { callName, formatTime, otherSummary, outcomeBadge, reportedByGateway, serverOf } from './history-format';

const NOTHING_ADDED = { id: 0, count: 0 };

/** Height of one row in pixels (rows are fixed-height, so scrolling never measures). */
export const ROW_HEIGHT = 64;

/** Props: the store to page through, how many rows to show, and the selection (by index). */
export interface HistoryListProps {
  store: HistoryStore;
  /** Rows: the items found, plus a loading row while more may follow. */
  total: number;
  /** Whether `total` is every item (else the set size is unknown to assistive technology too). */
  complete?: boolean;
  /** Items that arrived on top in the last refresh (the store's addedOnTop). */
  addedOnTop?: { id: number; count: number };
  /** Bumped by the store whenever loaded items change. */
  version: number;
  /** The query shown (a new one scrolls back to the top). */
  queryKey: HistoryQuery;
  active: number;
  onActivate: (index: number) => void;
  label: string;
}

/**
 * The history, newest first, as a virtualised listbox: only the rows on
 * screen exist, and only their pages are fetched. Up/Down, Page Up/Down,
 * Home and End move the selection; the detail pane follows it.
 */
export default function HistoryList({
  store,
  total,
  complete = true,
  addedOnTop = NOTHING_ADDED,
  version,
  queryKey,
  active,
  onActivate,
  label,
}: HistoryListProps) {
  const t = useT();
  const id = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 600, height: 600 },
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? 0;

  useEffect(() => {
    if (total > 0) store.ensureRange(first, last);
  }, [store, first, last, total, version]);

  // Entries appended on top push the rest down: keep what the human is reading in place
  // (unless they are at the very top, where the news belongs). A new query starts at the top.
  const previous = useRef({ addedOnTop, queryKey });
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = { addedOnTop, queryKey };
    const el = scroller.current;
    if (!el) return;
    if (before.queryKey !== queryKey) el.scrollTop = 0;
    else if (addedOnTop.id !== before.addedOnTop.id && el.scrollTop > 0) el.scrollTop += addedOnTop.count * ROW_HEIGHT;
  }, [addedOnTop, queryKey]);

  const move = (index: number) => {
    if (total === 0) return;
    const next = Math.max(0, Math.min(total - 1, index));
    onActivate(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const perPage = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + perPage,
      PageUp: active - perPage,
      Home: 0,
      End: total - 1,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    move(to);
  };

  const activeShown = rows.some((r) => r.index === active);
  return (
    <div
      ref={scroller}
      className="history-list"
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={activeShown ? `${id}-row-${active}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div className="history-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => {
          const item = store.itemAt(row.index);
          return (
            <div
              key={item ? `seq-${item.seq}` : `row-${row.index}`}
              id={`${id}-row-${row.index}`}
              role="option"
              aria-selected={row.index === active}
              aria-setsize={complete ? total : -1}
              aria-posinset={row.index + 1}
              className="history-row"
              data-index={row.index}
              data-seq={item?.seq}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
              onClick={() => move(row.index)}
            >
              {item ? <Row item={item} /> : <span className="history-row-loading">{t('history.loadingRow')}</span>}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function Row({ item }: { item: HistoryItem }) {
  const t = useT();
  const language = useLanguage();
  const badge = outcomeBadge(item);
  const server = serverOf(item);
  return (
    <>
      <span className="history-row-top">
        <span className={`pill pill-${badge.tone}`}>{t(badge.key)}</span>
        {server && <span className="history-row-server">{server}</span>}
        {reportedByGateway(item) && (
          <span className="history-row-reported" title={t('origin.reportedByGateway')}>
            {t('history.reportedByGateway.short')}
          </span>
        )}
        {item.kind === 'question' && callName(item) && (
          // Cut with an ellipsis in the row; whole on hover and in the detail pane.
          <span className="history-row-call mono" title={callName(item) ?? undefined}>
            {callName(item)}
          </span>
        )}
        {item.kind === 'question' && item.question.mode === 'url' && (
          <span className="history-row-mode">{t('history.mode.url')}</span>
        )}
        <span className="history-row-time">{formatTime(item.ts, language)}</span>
      </span>
      <span className="history-row-text" dir="auto">
        {item.kind === 'question' ? item.question.message || t('dialog.noMessage') : otherSummary(item)}
      </span>
    </>
  );
}
