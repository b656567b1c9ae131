// Collects what the CLI reports about each answered question: the stderr
// `[ELICIT]` line and the `questions` array of `--json`.
import type { AnswerContent } from '../../shared/elicitation/types';
import type { HostObserver } from '../core/events';
import { elicitLogLine } from './elicit-spec';

/** One question as `--json` reports it. */
export interface QuestionRecord {
  round: number;
  key: string;
  mode: 'form' | 'url';
  message: string;
  action: 'accept' | 'decline' | 'cancel';
  content?: AnswerContent;
  url?: { href: string; host: string; warnings: string[]; blocked: boolean };
}

/** An observer that prints one line per answer and keeps the records. */
export function questionLog(print: (line: string) => void): { observer: HostObserver; records: QuestionRecord[] } {
  const records: QuestionRecord[] = [];
  const observer: HostObserver = {
    answerRecorded({ question, answer }) {
      print(elicitLogLine(question, answer));
      const record: QuestionRecord = {
        round: question.origin.round,
        key: question.origin.key,
        mode: question.mode,
        message: question.message,
        action: answer.action,
      };
      if (answer.action === 'accept' && answer.content !== undefined) record.content = answer.content;
      if (question.mode === 'url') {
        record.url = {
          href: question.url.href,
          host: question.url.hostUnicode || question.url.host,
          warnings: question.url.warnings.map((w) => w.code),
          blocked: question.url.blocked,
        };
      }
      records.push(record);
    },
  };
  return { observer, records };
}
