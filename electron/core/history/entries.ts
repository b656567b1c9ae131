// Building entry bodies from the shared elicitation types, so the core does not
// map fields by hand.

import type { Answer, Question } from '../../../shared/elicitation/types';
import type { AnswerInput, DecidedBy, QuestionInput, RequestStateDigest } from './types';

export interface QuestionContext {
  callId?: string;
  protocolVersion?: string;
  /** The raw requestState (digested before it is written) or its digest. */
  requestState?: string | RequestStateDigest;
}

/** The `question` entry for a question about to be shown (or handed to a script or rule). */
export function questionEntry(question: Question, context: QuestionContext = {}): QuestionInput {
  const o = question.origin;
  const body: QuestionInput = {
    kind: 'question',
    questionId: question.id,
    callId: context.callId,
    server: { name: o.server, era: o.era, protocolVersion: context.protocolVersion },
    call: {
      method: o.method,
      name: o.name,
      argumentsSummary: o.argumentsSummary,
      agent: o.agent,
      ...(o.reportedBy ? { reportedBy: o.reportedBy } : {}),
    },
    round: o.round,
    key: o.key,
    mode: question.mode,
    message: question.message,
    requestState: context.requestState,
    ...(o.task ? { taskId: o.task.taskId } : {}),
  };
  if (question.mode === 'form') {
    body.requestedSchema = question.requestedSchema;
    body.fieldOrder = Object.keys(question.requestedSchema.properties);
  } else body.url = question.url;
  return body;
}

export interface AnswerContext {
  decidedBy: DecidedBy;
  decidedByDetail?: string;
  callId?: string;
  /** URL mode: whether the host opened the link. */
  urlOpened?: boolean;
  /** The app (ui:// resource) that drew the form in the host's dialog, when one did. */
  drawnByApp?: string;
}

/** The `answer` entry for `answer` to `question`. */
export function answerEntry(question: Question, answer: Answer, context: AnswerContext): AnswerInput {
  return {
    kind: 'answer',
    questionId: question.id,
    callId: context.callId,
    server: question.origin.server,
    action: answer.action,
    decidedBy: context.decidedBy,
    decidedByDetail: context.decidedByDetail,
    content: answer.action === 'accept' ? answer.content : undefined,
    urlOpened: question.mode === 'url' ? (context.urlOpened ?? false) : undefined,
    ...(context.drawnByApp ? { drawnByApp: context.drawnByApp } : {}),
  };
}
