// What the host keeps per server while it runs: the connection (or its
// opening), the calls in flight on it, and what the last tools/list said of
// each tool. The connections own the slots; a call and a legacy question read
// and mark them.
import type { ToolHints } from '../../../shared/elicitation/types';
import { VERIFIED_APPROVAL_META } from '../client-identity';
import { ElicitationCompletions } from '../calls/legacy-call';
import type { HeaderDeclaration } from '../calls/param-headers';
import type { QuestionAwareDeadline } from '../calls/question-aware-deadline';
import type { ServerConnection } from '../connection/server-connection';
import type { CallContext } from '../events';
import type { HostError } from '../host-error';

/** One call in flight on a server. */
export interface LiveCall {
  context: CallContext;
  round: number;
  controller: AbortController;
  /** A host error raised inside a legacy elicitation handler ends the call with it. */
  failure?: HostError;
  legacyQuestions: number;
  /** The running legacy attempt's clock, stopped while a question is open. */
  deadline?: QuestionAwareDeadline;
  /** Set the moment the call ends, for whatever reason: nothing is sent for it afterwards. */
  ended: boolean;
}

/** One configured server's state in the host. */
export interface ServerSlot {
  connection?: Promise<ServerConnection>;
  /**
   * Ends the attempt behind `connection` while it is still opening. A stdio
   * server can take minutes to answer its first message (npx fetching a
   * package, a registry that retries), and closing must not wait for that.
   */
  stopOpening?: AbortController;
  /** The connection once open (the gateway checks it without awaiting), while `connection` is its promise. */
  open?: { promise: Promise<ServerConnection>; conn: ServerConnection };
  completions: ElicitationCompletions;
  calls: Map<string, LiveCall>;
  /** SEP-2243 header declarations by tool, from the last tools/list. */
  toolHeaders: Map<string, HeaderDeclaration[]>;
  /** Legacy execution.taskSupport by tool, from the last tools/list. */
  toolTaskSupport?: Map<string, string>;
  /** The annotations each tool set (destructive, read-only), from the last tools/list; dialogs show them. */
  toolHints: Map<string, ToolHints>;
}

/** A slot for a server the host has not used yet. */
export function emptySlot(): ServerSlot {
  return {
    completions: new ElicitationCompletions(),
    calls: new Map(),
    toolHeaders: new Map(),
    toolHints: new Map(),
  };
}

/**
 * The hints of a tools/list entry: its `annotations` (read-only wins over destructive) and whether its `_meta`
 * asks for passkey-verified approvals; undefined when it says none of these.
 */
export function toolHintsOf(annotations: unknown, meta?: unknown): ToolHints | undefined {
  const a = (typeof annotations === 'object' && annotations !== null ? annotations : {}) as {
    destructiveHint?: unknown;
    readOnlyHint?: unknown;
  };
  const verified =
    typeof meta === 'object' && meta !== null && VERIFIED_APPROVAL_META in meta
      ? ({ verifiedApproval: true } as const)
      : {};
  const hints: ToolHints =
    a.readOnlyHint === true
      ? { readOnly: true, ...verified }
      : a.destructiveHint === true
        ? { destructive: true, ...verified }
        : { ...verified };
  return Object.keys(hints).length > 0 ? hints : undefined;
}
