// The history items the host's queryHistory returns (one per question, with
// its answer and how its call ended; other entries on their own), typed for
// the renderer. The contract keeps them loose; this mirrors the journal's
// shape (electron/core/history/query.ts) without importing the core.
import type { Action, AnswerContent, FlatSchema, UrlAnalysis } from '../../../shared/elicitation/types';
import type { HistoryEntryView } from '../../../shared/host-api/contract';

/** Who or what chose an answer. */
export type DecidedBy = 'human' | 'script' | 'mute-rule' | 'timeout' | 'call-cancelled' | 'policy';

/** The question as it was asked. */
export interface HistoryQuestion {
  seq: number;
  ts: string;
  questionId: string;
  callId?: string;
  server: { name: string; era: 'modern' | 'legacy'; protocolVersion?: string };
  call: { method: 'tools/call' | 'prompts/get' | 'resources/read' | null; name: string | null; argumentsSummary?: string };
  round: number;
  key: string;
  mode: 'form' | 'url';
  message: string;
  requestedSchema?: FlatSchema;
  /** The order the form's fields were shown in (the stored schema's keys are sorted). */
  fieldOrder?: string[];
  url?: UrlAnalysis;
}

/** The answer, as recorded. */
export interface HistoryAnswer {
  kind: 'answer';
  seq: number;
  ts: string;
  server: string;
  action: Action;
  decidedBy: DecidedBy;
  decidedByDetail?: string;
  content?: AnswerContent;
  redacted?: { fields: string[]; salt: string; sha256: string };
  urlOpened?: boolean;
}

/** How the call that asked ended. */
export interface HistoryCallEnd {
  kind: 'call-end';
  seq: number;
  ts: string;
  server: string;
  name?: string | null;
  outcome: 'complete' | 'error' | 'round-limit' | 'cancelled';
  isError?: boolean;
  rounds?: number;
  detail?: string;
}

/** A protocol fault or a journal note. */
export interface HistoryOtherEntry {
  kind: 'fault' | 'note';
  seq: number;
  ts: string;
  server?: string;
  fault?: string;
  note?: string;
  detail?: string;
}

export interface QuestionItem {
  kind: 'question';
  seq: number;
  ts: string;
  question: HistoryQuestion;
  answer?: HistoryAnswer;
  callEnd?: HistoryCallEnd;
}

export interface OtherItem {
  kind: 'other';
  seq: number;
  ts: string;
  entry: HistoryOtherEntry | HistoryAnswer | HistoryCallEnd;
}

export type HistoryItem = QuestionItem | OtherItem;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Narrows what the host sent to an item the view can draw; null for anything malformed. */
export function toHistoryItem(view: HistoryEntryView): HistoryItem | null {
  if (typeof view.seq !== 'number' || typeof view.ts !== 'string') return null;
  if (view.kind === 'question') {
    const q = view.question;
    if (!isObject(q) || !isObject(q.server) || !isObject(q.call) || typeof q.message !== 'string') return null;
    return view as unknown as QuestionItem;
  }
  if (view.kind === 'other' && isObject(view.entry) && typeof view.entry.kind === 'string') return view as unknown as OtherItem;
  return null;
}

/** The outcome of a question item ('none' while unanswered). */
export function outcomeOf(item: QuestionItem): Action | 'none' {
  return item.answer?.action ?? 'none';
}
