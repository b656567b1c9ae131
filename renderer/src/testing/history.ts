// History items for tests, of the very types the host's queryHistory returns.
import type { AnswerContent, FlatSchema, UrlAnalysis } from '../../../shared/elicitation/types';
import type { QuestionItem } from '../../../shared/history/items';
import type { CallOutcome, DecidedBy } from '../../../shared/history/journal-types';

/** The journal header of entry `seq` (the hashes are placeholders: the view never checks them). */
function header(seq: number, ts: string) {
  return { v: 1, seq, ts, prev: '0'.repeat(64), hash: seq.toString(16).padStart(64, '0') };
}

/** Options for one item. */
export interface HistoryItemOptions {
  server?: string;
  action?: 'accept' | 'decline' | 'cancel';
  tool?: string;
  message?: string;
  schema?: FlatSchema;
  content?: AnswerContent;
  redacted?: string[];
  url?: UrlAnalysis;
  decidedBy?: DecidedBy;
  callEnd?: { outcome: CallOutcome; isError?: boolean; rounds?: number; detail?: string };
  /** The labels came from a gateway (reportedBy on the call). */
  viaGateway?: { agent: string };
}

/** A question item (with its answer and call end when given), timestamped one minute per seq from 2026-01-01. */
export function historyItem(seq: number, options: HistoryItemOptions = {}): QuestionItem {
  const ts = new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString();
  const server = options.server ?? 'github';
  const mode = options.url ? 'url' : 'form';
  return {
    kind: 'question',
    seq,
    ts,
    question: {
      kind: 'question',
      ...header(seq, ts),
      questionId: `q${seq}`,
      server: { name: server, era: 'modern', protocolVersion: '2026-07-28' },
      call: {
        method: 'tools/call',
        name: options.tool ?? 'deploy',
        argumentsSummary: 'env="prod"',
        ...(options.viaGateway ? { agent: options.viaGateway.agent, reportedBy: 'gateway' as const } : {}),
      },
      round: 1,
      key: 'k',
      mode,
      message: options.message ?? `question ${seq}`,
      ...(options.url
        ? { url: options.url }
        : { requestedSchema: options.schema ?? { type: 'object', properties: {} } }),
    },
    ...(options.action
      ? {
          answer: {
            kind: 'answer',
            ...header(seq + 1, ts),
            questionId: `q${seq}`,
            server,
            action: options.action,
            decidedBy: options.decidedBy ?? 'human',
            ...(options.content ? { content: options.content } : {}),
            ...(options.redacted ? { redacted: { fields: options.redacted, salt: '00', sha256: 'ab' } } : {}),
            ...(mode === 'url' ? { urlOpened: options.action === 'accept' } : {}),
          },
        }
      : {}),
    ...(options.callEnd
      ? { callEnd: { kind: 'call-end', ...header(seq + 2, ts), callId: `c${seq}`, server, ...options.callEnd } }
      : {}),
  };
}
