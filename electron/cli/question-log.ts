// Collects what the CLI reports about each question: the stderr `[ELICIT]`
// line of each answer sent, and the `questions` array of `--json`, which also
// lists a question whose scripted answer the host refused to send (with why).
import type { AnswerContent, Question } from '../../shared/elicitation/types';
import type { HostObserver } from '../core/events';
import { elicitLogLine } from './elicit-spec';

/** One question as `--json` reports it. */
export interface QuestionRecord {
  round: number;
  key: string;
  mode: 'form' | 'url';
  message: string;
  /** What was sent; `refused`: the answer given did not pass the host's checks and nothing was sent. */
  action: 'accept' | 'decline' | 'cancel' | 'refused';
  content?: AnswerContent;
  url?: { href: string; host: string; warnings: string[]; blocked: boolean };
  /** Why the answer was refused (the same sentence as the error line). */
  reason?: string;
}

function recordOf(question: Question, action: QuestionRecord['action'], content?: AnswerContent): QuestionRecord {
  const record: QuestionRecord = {
    round: question.origin.round,
    key: question.origin.key,
    mode: question.mode,
    message: question.message,
    action,
  };
  if (content !== undefined) record.content = content;
  if (question.mode === 'url') {
    record.url = {
      href: question.url.href,
      host: question.url.hostUnicode || question.url.host,
      warnings: question.url.warnings.map((w) => w.code),
      blocked: question.url.blocked,
    };
  }
  return record;
}

/** An observer that prints one line per answer and keeps the records. */
export function questionLog(print: (line: string) => void): { observer: HostObserver; records: QuestionRecord[] } {
  const records: QuestionRecord[] = [];
  const observer: HostObserver = {
    answerRecorded({ question, answer }) {
      print(elicitLogLine(question, answer));
      records.push(recordOf(question, answer.action, answer.action === 'accept' ? answer.content : undefined));
    },
    fault({ question, message }) {
      if (question) records.push({ ...recordOf(question, 'refused'), reason: message });
    },
  };
  return { observer, records };
}
