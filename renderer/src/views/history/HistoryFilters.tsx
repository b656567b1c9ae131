import { useId } from 'react';
import { useT } from '../../i18n/i18n-context';
import { isFiltered, NO_FILTER, type HistoryFilterValues } from './history-format';

/** Props: the filter values, the server names to offer, and how to change them. */
export interface HistoryFiltersProps {
  values: HistoryFilterValues;
  servers: readonly string[];
  onChange: (values: HistoryFilterValues) => void;
}

/**
 * Filters: server, outcome, kind of question, date range and free text (typed text is applied after a short pause by
 * the view).
 */
export default function HistoryFilters({ values, servers, onChange }: HistoryFiltersProps) {
  const t = useT();
  const id = useId();
  const set = <K extends keyof HistoryFilterValues>(key: K, value: HistoryFilterValues[K]) =>
    onChange({ ...values, [key]: value });
  const serverNames = values.server && !servers.includes(values.server) ? [...servers, values.server] : servers;
  return (
    <div className="history-filters" role="search" aria-label={t('history.filters')}>
      <div className="filter filter-text">
        <label htmlFor={`${id}-text`}>{t('history.filter.text')}</label>
        <input
          id={`${id}-text`}
          type="search"
          className="input"
          value={values.text}
          placeholder={t('history.filter.textPlaceholder')}
          onChange={(e) => set('text', e.target.value)}
        />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-server`}>{t('history.filter.server')}</label>
        <select
          id={`${id}-server`}
          className="input select"
          value={values.server}
          onChange={(e) => set('server', e.target.value)}
        >
          <option value="">{t('history.filter.allServers')}</option>
          {serverNames.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="filter">
        <label htmlFor={`${id}-action`}>{t('history.filter.outcome')}</label>
        <select
          id={`${id}-action`}
          className="input select"
          value={values.action}
          onChange={(e) => set('action', e.target.value as HistoryFilterValues['action'])}
        >
          <option value="">{t('history.filter.anyOutcome')}</option>
          <option value="accept">{t('history.outcome.accept')}</option>
          <option value="decline">{t('history.outcome.decline')}</option>
          <option value="cancel">{t('history.outcome.cancel')}</option>
        </select>
      </div>
      <div className="filter">
        <label htmlFor={`${id}-mode`}>{t('history.filter.mode')}</label>
        <select
          id={`${id}-mode`}
          className="input select"
          value={values.mode}
          onChange={(e) => set('mode', e.target.value as HistoryFilterValues['mode'])}
        >
          <option value="">{t('history.filter.everything')}</option>
          <option value="question">{t('history.filter.anyMode')}</option>
          <option value="form">{t('history.mode.form')}</option>
          <option value="url">{t('history.mode.url')}</option>
        </select>
      </div>
      <div className="filter filter-date">
        <label htmlFor={`${id}-from`}>{t('history.filter.from')}</label>
        <input
          id={`${id}-from`}
          type="date"
          className="input"
          value={values.from}
          max={values.to || undefined}
          onChange={(e) => set('from', e.target.value)}
        />
      </div>
      <div className="filter filter-date">
        <label htmlFor={`${id}-to`}>{t('history.filter.to')}</label>
        <input
          id={`${id}-to`}
          type="date"
          className="input"
          value={values.to}
          min={values.from || undefined}
          onChange={(e) => set('to', e.target.value)}
        />
      </div>
      {isFiltered(values) && (
        <button type="button" className="button button-link filter-clear" onClick={() => onChange(NO_FILTER)}>
          {t('history.filter.clear')}
        </button>
      )}
    </div>
  );
}
