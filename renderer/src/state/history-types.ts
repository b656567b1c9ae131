// The history items the host's queryHistory returns (one per question, with
// its answer and how its call ended; other entries on their own), typed for
// the renderer from the journal's own entry types in shared/, so the view and
// the journal cannot drift apart.
import type { Action } from '../../../shared/elicitation/types';
import type {
  AnswerBody,
  CallEndBody,
  DecidedBy as JournalDecidedBy,
  QuestionBody,
  SignInBody,
  TaskBody,
} from '../../../shared/history/journal-types';
import type { HistoryEntryView } from '../../../shared/host-api/contract';

/** Who or what chose an answer. */
export type DecidedBy = JournalDecidedBy;

/** When an entry was written, and where in the chain. */
interface Stamp {
  seq: number;
  ts: string;
}

/** The question as it was asked. */
export type HistoryQuestion = Stamp & Omit<QuestionBody, 'kind'>;

/** The answer, as recorded. */
export type HistoryAnswer = Stamp & Omit<AnswerBody, 'questionId' | 'callId'>;

/** How the call that asked ended. */
export type HistoryCallEnd = Stamp & Omit<CallEndBody, 'callId'>;

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

/** A task's status change. */
export type HistoryTaskEntry = Stamp & TaskBody;

/** A sign-in step (server, issuer, scopes; never a token or code). */
export type HistorySignInEntry = Stamp & SignInBody;

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
  entry: HistoryOtherEntry | HistoryTaskEntry | HistorySignInEntry | HistoryAnswer | HistoryCallEnd;
}

export type HistoryItem = QuestionItem | OtherItem;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Narrows what the host sent to an item the view can draw; null for anything malformed. */
export function toHistoryItem(view: HistoryEntryView): HistoryItem | null {
  if (typeof view.seq !== 'number' || typeof view.ts !== 'string') return null;
  if (view.kind === 'question') {
    const q = view.question;
    if (!isObject(q) || !isObject(q.server) || !isObject(q.call) || typeof q.message !== 'string') return null;
    // eslint-disable-next-line no-restricted-syntax -- goes with wire types once (issue 14 §2-3)
    return view as unknown as QuestionItem;
  }
  if (view.kind === 'other' && isObject(view.entry) && typeof view.entry.kind === 'string')
    // eslint-disable-next-line no-restricted-syntax -- goes with wire types once (issue 14 §2-3)
    return view as unknown as OtherItem;
  return null;
}

/** The outcome of a question item ('none' while unanswered). */
export function outcomeOf(item: QuestionItem): Action | 'none' {
  return item.answer?.action ?? 'none';
}
