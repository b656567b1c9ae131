// What the core reports while calls run: the history journal and the UI
// subscribe to these. Answers are reported BEFORE they are sent, and the core
// waits for observers (write-ahead), so an answered question is always on
// disk before the server learns the answer.
import type { Answer, CallMethod, Question, ToolHints } from '../../shared/elicitation/types';
import type { HostErrorCode } from './host-error';
import type { AppBody, CallOutcome } from '../../shared/history/journal-types';
import type { DecidedBy, PasskeyRecordBody } from '../../shared/history/journal-types';
import type { TaskStatus } from '../../shared/tasks/task-status';
import type { TaskRecord } from './task-record';

/** The call a question belongs to. */
export interface CallContext {
  callId: string;
  server: string;
  era: 'modern' | 'legacy';
  protocolVersion: string;
  method: CallMethod;
  /** Tool, prompt name or resource URI. */
  name: string;
  arguments?: Record<string, unknown>;
  /** A gateway's call whose arguments were too large to travel: this app does not know them. */
  argumentsOmitted?: true;
  /** Which agent connection caused the call (gateway), if any. */
  agent?: string;
  /** The tool's annotations from the server's last tools/list, if it set any. */
  toolHints?: ToolHints;
  /** The call was reported by a gateway over the approval channel: its labels are the gateway's word. */
  reportedBy?: 'gateway';
}

/** Length and SHA-256 of an opaque requestState: never the value. */
export interface StateDigest {
  length: number;
  sha256: string;
}

export interface QuestionAskedEvent {
  call: CallContext | null;
  question: Question;
  askedAt: string;
  /** Digest of the requestState the round carried (modern era). */
  requestState?: StateDigest;
}

export interface AnswerEvent {
  call: CallContext | null;
  question: Question;
  answer: Answer;
  decidedBy: DecidedBy;
  /** Which rule or limit decided, when not the human. */
  decidedByDetail?: string;
  urlOpened?: boolean;
  answeredAt: string;
  /** Digest of the requestState the round carried (modern era). */
  requestState?: StateDigest;
  /** The accept needed the person's passkey: what became of it (the receipt, when confirmed). */
  passkey?: PasskeyRecordBody;
}

export type { CallOutcome };

export interface CallEndedEvent {
  call: CallContext;
  outcome: CallOutcome;
  isError?: boolean;
  error?: string;
  rounds: number;
  endedAt: string;
}

export interface FaultEvent {
  call: CallContext | null;
  code: HostErrorCode;
  message: string;
  details?: Record<string, unknown>;
  /** The question the fault is about, when one was built (an answer the gate refused to send). */
  question?: Question;
  at: string;
}

/**
 * A question a gateway handed to the app (../approval/remote-questions.ts): the
 * gateway sees no Question, only that its call is asking, and then what came back.
 */
export interface QuestionRelayedEvent {
  call: CallContext | null;
}

/** A relayed question's end: its answer, or (both absent) none came back (refused, withdrawn, channel lost). */
export type AnswerRelayedEvent =
  | { call: CallContext | null; answer: Answer; decidedBy: DecidedBy }
  | { call: CallContext | null; answer?: undefined; decidedBy?: undefined };

/** A task's record after a change (status, message, end). */
export interface TaskChangedEvent {
  call: CallContext | null;
  task: TaskRecord;
  /** The status before, when the status itself changed. */
  previous?: TaskStatus;
  at: string;
}

/** Listeners for core events; every method may be async and is awaited. */
export interface HostObserver {
  questionAsked?(event: QuestionAskedEvent): void | Promise<void>;
  /** Awaited BEFORE the answer is sent: write-ahead. A throw stops the send. */
  answerRecorded?(event: AnswerEvent): void | Promise<void>;
  /** The gateway handed a question to the app (the app's gate reports questionAsked there). */
  questionRelayed?(event: QuestionRelayedEvent): void | Promise<void>;
  /** A relayed question ended: the app's answer (recorded and checked there) arrived, or none will. */
  answerRelayed?(event: AnswerRelayedEvent): void | Promise<void>;
  callEnded?(event: CallEndedEvent): void | Promise<void>;
  fault?(event: FaultEvent): void | Promise<void>;
  taskChanged?(event: TaskChangedEvent): void | Promise<void>;
  /** Something an MCP App did, or the host did to it (electron/core/apps). */
  appEvent?(event: AppBody): void | Promise<void>;
}

/** Fan one event out to several observers, in order. */
export function combineObservers(...observers: Array<HostObserver | undefined>): HostObserver {
  const list = observers.filter((o): o is HostObserver => o !== undefined);
  return {
    async questionAsked(e) {
      for (const o of list) await o.questionAsked?.(e);
    },
    async answerRecorded(e) {
      for (const o of list) await o.answerRecorded?.(e);
    },
    async questionRelayed(e) {
      for (const o of list) await o.questionRelayed?.(e);
    },
    async answerRelayed(e) {
      for (const o of list) await o.answerRelayed?.(e);
    },
    async callEnded(e) {
      for (const o of list) await o.callEnded?.(e);
    },
    async fault(e) {
      for (const o of list) await o.fault?.(e);
    },
    async taskChanged(e) {
      for (const o of list) await o.taskChanged?.(e);
    },
    async appEvent(e) {
      for (const o of list) await o.appEvent?.(e);
    },
  };
}
