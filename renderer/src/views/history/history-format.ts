// Pure helpers of the History view: the filter form to a host query, and the
// words for outcomes, deciders and call endings.
import type { MessageKey } from '../../i18n/en';
import type { HistoryQuery } from '../../state/history-store';
import type { Action } from '../../../../shared/elicitation/types';
import type { HistoryItem, OtherItem, QuestionItem } from '../../../../shared/history/items';
import { CALL_OUTCOMES, DECIDED_BY, type CallEndEntry, type DecidedBy } from '../../../../shared/history/journal-types';

/** The filter form's values (empty string: no filter). */
export interface HistoryFilterValues {
  server: string;
  action: '' | 'accept' | 'decline' | 'cancel';
  mode: '' | 'form' | 'url' | 'question';
  /** YYYY-MM-DD (local day), inclusive. */
  from: string;
  /** YYYY-MM-DD (local day), inclusive. */
  to: string;
  text: string;
}

/** No filter at all. */
export const NO_FILTER: HistoryFilterValues = { server: '', action: '', mode: '', from: '', to: '', text: '' };

/** Local midnight starting `day` (YYYY-MM-DD), as ISO; null when not a date. */
export function dayStart(day: string, plusDays = 0): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The host query for the form: the "to" day is included (until = the next local midnight). */
export function queryFromFilter(values: HistoryFilterValues): HistoryQuery {
  const query: HistoryQuery = {};
  if (values.server) query.server = values.server;
  if (values.action) query.action = values.action;
  if (values.mode) query.mode = values.mode;
  const since = dayStart(values.from);
  if (since) query.since = since;
  const until = dayStart(values.to, 1);
  if (until) query.until = until;
  const text = values.text.trim();
  if (text) query.text = text.slice(0, 500);
  return query;
}

/** True when any filter is set. */
export function isFiltered(values: HistoryFilterValues): boolean {
  return Object.values(values).some((v) => v !== '');
}

/** The outcome of a question item ('none' while unanswered). */
export function outcomeOf(item: QuestionItem): Action | 'none' {
  return item.answer?.action ?? 'none';
}

/** Whether the item's server, call and agent labels are the gateway's word (the app did not see the call). */
export function reportedByGateway(item: HistoryItem): boolean {
  return item.kind === 'question' ? item.question.call.reportedBy === 'gateway' : reportedByOf(item) === 'gateway';
}

function reportedByOf(item: OtherItem): string | undefined {
  const e = item.entry;
  return e.kind === 'call-end' || e.kind === 'fault' ? e.reportedBy : undefined;
}

/** The pill class and label key of an item's outcome. */
export function outcomeBadge(item: HistoryItem): {
  tone: 'success' | 'warning' | 'neutral' | 'info' | 'danger';
  key: MessageKey;
} {
  if (item.kind === 'question') {
    switch (outcomeOf(item)) {
      case 'accept':
        return { tone: 'success', key: 'history.outcome.accept' };
      case 'decline':
        return { tone: 'warning', key: 'history.outcome.decline' };
      case 'cancel':
        return { tone: 'neutral', key: 'history.outcome.cancel' };
      default:
        return { tone: 'info', key: 'history.outcome.none' };
    }
  }
  switch (item.entry.kind) {
    case 'fault':
      return { tone: 'danger', key: 'history.kind.fault' };
    case 'note':
      return { tone: 'neutral', key: 'history.kind.note' };
    case 'answer':
      return { tone: 'neutral', key: 'history.kind.answer' };
    case 'task':
      return { tone: 'info', key: 'history.kind.task' };
    case 'app':
      return { tone: item.entry.event === 'closed' ? 'warning' : 'info', key: `history.app.${item.entry.event}` };
    case 'sign-in':
      return {
        tone: item.entry.phase === 'failed' ? 'danger' : item.entry.phase === 'completed' ? 'success' : 'info',
        key: `history.signIn.${item.entry.phase}`,
      };
    default:
      return { tone: 'neutral', key: 'history.kind.call-end' };
  }
}

/** The dictionary key for who decided. */
export function decidedByKey(by: DecidedBy | string): MessageKey {
  const known: readonly string[] = DECIDED_BY;
  return known.includes(by) ? (`history.decidedBy.${by}` as MessageKey) : 'history.decidedBy.other';
}

/** The dictionary key for how a call ended (a tool error is a completed call with isError). */
export function callEndKey(end: Pick<CallEndEntry, 'outcome' | 'isError'>): MessageKey {
  if (end.outcome === 'complete') return end.isError ? 'history.callEnd.toolError' : 'history.callEnd.complete';
  const known: readonly string[] = CALL_OUTCOMES.filter((o) => o !== 'complete');
  return known.includes(end.outcome) ? (`history.callEnd.${end.outcome}` as MessageKey) : 'history.callEnd.other';
}

/** The server an item belongs to, if any. */
export function serverOf(item: HistoryItem): string | undefined {
  if (item.kind === 'question') return item.question.server.name;
  return item.entry.kind === 'note' ? undefined : item.entry.server;
}

/** The call (tool, prompt or resource) a question came from. */
export function callName(item: QuestionItem): string | null {
  return item.question.call.name;
}

/** A short, single-line text for an item that is not a question. */
export function otherSummary(item: Exclude<HistoryItem, QuestionItem>): string {
  const e = item.entry;
  switch (e.kind) {
    case 'fault':
      return [e.fault, e.detail].filter(Boolean).join(': ');
    case 'note':
      return e.detail || e.note;
    case 'answer':
      return e.action;
    case 'task':
      return [
        `${e.tool} · ${e.taskId.slice(0, 8)}…`,
        e.previous ? `${e.previous} → ${e.status}` : e.status,
        e.statusMessage,
        e.note,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'sign-in':
      return [
        e.call ? `${e.call.method} ${e.call.name}` : undefined,
        e.issuer,
        e.scopes.length > 0 ? e.scopes.join(' ') : undefined,
        e.detail,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'app':
      return [e.tool, e.resourceUri, e.detail].filter(Boolean).join(' · ');
    default:
      return [e.name, e.outcome, e.detail].filter(Boolean).join(' · ');
  }
}

/** Date and time in the UI language, to the second. */
export function formatTime(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

function localDay(iso: string, minusDays = 0): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  d.setDate(d.getDate() - minusDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The filter form for a query (the inverse of queryFromFilter), so the form survives leaving the view. */
export function filterFromQuery(query: HistoryQuery): HistoryFilterValues {
  return {
    server: query.server ?? '',
    action: query.action ?? '',
    mode: query.mode ?? '',
    from: query.since ? localDay(query.since) : '',
    to: query.until ? localDay(query.until, 1) : '',
    text: query.text ?? '',
  };
}

/** Whether two queries ask for the same items. */
export function sameQuery(a: HistoryQuery, b: HistoryQuery): boolean {
  const keys: Array<keyof HistoryQuery> = ['server', 'action', 'mode', 'since', 'until', 'text'];
  return keys.every((k) => a[k] === b[k]);
}
