// The history as the view, the CLI and exports show it: one item per question,
// with its answer and how its call ended, and every other entry on its own.
// Built by the core (electron/core/history/query.ts, newest-first.ts) and sent
// as is over the host API, so the renderer reads the very same types.

import type {
  AnswerEntry,
  AppEntry,
  CallEndEntry,
  FaultEntry,
  NoteEntry,
  QuestionEntry,
  SignInEntry,
  TaskEntry,
} from './journal-types';

export interface QuestionItem {
  kind: 'question';
  seq: number;
  /** Time asked. */
  ts: string;
  question: QuestionEntry;
  /** Absent while unanswered (or if the app died before answering). */
  answer?: AnswerEntry;
  /** How the call that asked ended, once it has. */
  callEnd?: CallEndEntry;
}

/** Any entry not folded into a question: faults, task changes, sign-in steps, notes, stray answers or call ends. */
export interface OtherItem {
  kind: 'other';
  seq: number;
  ts: string;
  entry: FaultEntry | TaskEntry | NoteEntry | AnswerEntry | CallEndEntry | SignInEntry | AppEntry;
}

export type HistoryItem = QuestionItem | OtherItem;
