// History items for tests, shaped like the host's queryHistory entries.
import type { HistoryEntryView } from '../../../shared/host-api/contract';
import type { UrlAnalysis } from '../../../shared/elicitation/types';

/** Options for one item. */
export interface HistoryItemOptions {
  server?: string;
  action?: 'accept' | 'decline' | 'cancel';
  tool?: string;
  message?: string;
  schema?: Record<string, unknown>;
  content?: Record<string, unknown>;
  redacted?: string[];
  url?: UrlAnalysis;
  decidedBy?: string;
  callEnd?: { outcome: string; isError?: boolean; rounds?: number; detail?: string };
}

/** A question item (with its answer and call end when given), timestamped one minute per seq from 2026-01-01. */
export function historyItem(seq: number, options: HistoryItemOptions = {}): HistoryEntryView {
  const ts = new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString();
  const server = options.server ?? 'github';
  const mode = options.url ? 'url' : 'form';
  return {
    kind: 'question',
    seq,
    ts,
    question: {
      seq,
      ts,
      questionId: `q${seq}`,
      server: { name: server, era: 'modern', protocolVersion: '2026-07-28' },
      call: { method: 'tools/call', name: options.tool ?? 'deploy', argumentsSummary: 'env="prod"' },
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
            seq: seq + 1,
            ts,
            server,
            action: options.action,
            decidedBy: options.decidedBy ?? 'human',
            ...(options.content ? { content: options.content } : {}),
            ...(options.redacted ? { redacted: { fields: options.redacted, salt: '00', sha256: 'ab' } } : {}),
            ...(mode === 'url' ? { urlOpened: options.action === 'accept' } : {}),
          },
        }
      : {}),
    ...(options.callEnd ? { callEnd: { kind: 'call-end', seq: seq + 2, ts, server, ...options.callEnd } } : {}),
  };
}
