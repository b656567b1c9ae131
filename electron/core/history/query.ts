// Joining entries into one item per question (with its answer and how its call
// ended) and filtering them. Pure functions over already-read entries, so the
// view can load once and filter many times.

import type { Action } from '../../../shared/elicitation/types';
import type { HistoryItem, OtherItem, QuestionItem } from '../../../shared/history/items';
import type { AnswerEntry, DecidedBy, JournalEntry } from './types';

export type { HistoryItem, OtherItem, QuestionItem };

export interface HistoryFilter {
  /** Exact server name. Keeps questions and faults of that server. */
  server?: string;
  /** Keeps questions with that outcome ('none': not answered). */
  action?: Action | 'none';
  /** A question's mode; 'question' keeps every question and no other row. */
  mode?: 'form' | 'url' | 'question';
  decidedBy?: DecidedBy;
  /** Inclusive lower bound on the item time (time asked, for questions). */
  since?: Date | string;
  /** Exclusive upper bound. */
  until?: Date | string;
  /** Case-insensitive substring of message, server, call, arguments, URL, content, fault or note text. */
  text?: string;
}

/** One item per question, plus every other entry, in chain order. */
export function buildItems(entries: readonly JournalEntry[]): HistoryItem[] {
  const items: HistoryItem[] = [];
  const byQuestion = new Map<string, QuestionItem>();
  const byCall = new Map<string, QuestionItem[]>();
  for (const e of entries) {
    switch (e.kind) {
      case 'question': {
        const item: QuestionItem = { kind: 'question', seq: e.seq, ts: e.ts, question: e };
        items.push(item);
        byQuestion.set(e.questionId, item);
        if (e.callId !== undefined) {
          const list = byCall.get(e.callId);
          if (list) list.push(item);
          else byCall.set(e.callId, [item]);
        }
        break;
      }
      case 'answer': {
        const item = byQuestion.get(e.questionId);
        if (item && !item.answer) item.answer = e;
        else items.push({ kind: 'other', seq: e.seq, ts: e.ts, entry: e });
        break;
      }
      case 'call-end': {
        const list = byCall.get(e.callId);
        if (list) for (const item of list) item.callEnd ??= e;
        else items.push({ kind: 'other', seq: e.seq, ts: e.ts, entry: e });
        break;
      }
      default:
        items.push({ kind: 'other', seq: e.seq, ts: e.ts, entry: e });
    }
  }
  return items;
}

export function filterItems(items: readonly HistoryItem[], filter: HistoryFilter): HistoryItem[] {
  const keep = itemFilter(filter);
  return keep ? items.filter(keep) : [...items];
}

/** `filter` as a test of one item (undefined when it keeps everything), for readers that stream items. */
export function itemFilter(filter: HistoryFilter): ((item: HistoryItem) => boolean) | undefined {
  const since = filter.since === undefined ? undefined : toIso(filter.since);
  const until = filter.until === undefined ? undefined : toIso(filter.until);
  const text = filter.text?.trim();
  const needle = text ? textMatcher(text) : undefined;
  const questionOnly = filter.action !== undefined || filter.mode !== undefined || filter.decidedBy !== undefined;
  if (
    since === undefined &&
    until === undefined &&
    needle === undefined &&
    filter.server === undefined &&
    !questionOnly
  )
    return undefined;
  return (item) => {
    if (since !== undefined && item.ts < since) return false;
    if (until !== undefined && item.ts >= until) return false;
    if (item.kind === 'question') {
      const q = item.question;
      if (filter.server !== undefined && q.server.name !== filter.server) return false;
      if (filter.mode !== undefined && filter.mode !== 'question' && q.mode !== filter.mode) return false;
      if (filter.action !== undefined && (item.answer?.action ?? 'none') !== filter.action) return false;
      if (filter.decidedBy !== undefined && item.answer?.decidedBy !== filter.decidedBy) return false;
    } else {
      const e = item.entry;
      if (questionOnly && e.kind !== 'answer') return false;
      if (e.kind === 'answer') {
        if (filter.mode !== undefined) return false;
        if (filter.action !== undefined && e.action !== filter.action) return false;
        if (filter.decidedBy !== undefined && e.decidedBy !== filter.decidedBy) return false;
      }
      if (filter.server !== undefined && (e.kind === 'note' || e.server !== filter.server)) return false;
    }
    return needle === undefined || matchesText(item, needle);
  };
}

/** Whether the item's text (message, server, call, arguments, URL, content, fault or note text) contains `needle`. */
export function matchesText(item: HistoryItem, needle: RegExp): boolean {
  if (item.kind === 'question') {
    const q = item.question;
    return (
      needle.test(q.message) ||
      needle.test(q.server.name) ||
      (q.call.name !== null && needle.test(q.call.name)) ||
      (q.call.method !== null && needle.test(q.call.method)) ||
      (q.call.argumentsSummary !== undefined && needle.test(q.call.argumentsSummary)) ||
      (q.call.agent !== undefined && needle.test(q.call.agent)) ||
      needle.test(q.key) ||
      (q.url !== undefined && (needle.test(q.url.href) || needle.test(q.url.hostUnicode))) ||
      (item.answer !== undefined && contentMatches(item.answer, needle)) ||
      (item.callEnd?.detail !== undefined && needle.test(item.callEnd.detail))
    );
  }
  const e = item.entry;
  switch (e.kind) {
    case 'answer':
      return needle.test(e.server) || contentMatches(e, needle);
    case 'call-end':
      return (
        needle.test(e.server) ||
        (e.name != null && needle.test(e.name)) ||
        (e.detail !== undefined && needle.test(e.detail))
      );
    case 'fault':
      return (e.server !== undefined && needle.test(e.server)) || needle.test(e.fault) || needle.test(e.detail);
    case 'task':
      return (
        needle.test(e.server) ||
        needle.test(e.tool) ||
        needle.test(e.taskId) ||
        needle.test(e.status) ||
        (e.statusMessage !== undefined && needle.test(e.statusMessage)) ||
        (e.note !== undefined && needle.test(e.note))
      );
    case 'sign-in':
      return (
        needle.test(e.server) ||
        needle.test(e.phase) ||
        (e.issuer !== undefined && needle.test(e.issuer)) ||
        e.scopes.some((x) => needle.test(x)) ||
        (e.detail !== undefined && needle.test(e.detail))
      );
    case 'app':
      return (
        needle.test(e.server) ||
        needle.test(e.tool) ||
        needle.test(e.event) ||
        needle.test(e.resourceUri) ||
        (e.detail !== undefined && needle.test(e.detail))
      );
    default:
      return needle.test(e.note) || needle.test(e.detail);
  }
}

function contentMatches(answer: AnswerEntry, needle: RegExp): boolean {
  if (!answer.content) return false;
  for (const key in answer.content) {
    const v = answer.content[key]!;
    if (needle.test(key) || needle.test(Array.isArray(v) ? v.join(' ') : String(v))) return true;
  }
  return false;
}

/** A case-insensitive literal matcher for free text. */
export function textMatcher(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
}

function toIso(value: Date | string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) throw new RangeError(`invalid date ${String(value)}`);
  return d.toISOString();
}
