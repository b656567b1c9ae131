// What the agent gets back: the server's own final result, cleaned of wire
// material, or, when the host ended the call, one clear sentence. Host
// sentences are fixed per error kind and never quote the question: a schema
// problem or an answer detail in an error text would hand the model part of
// a question it must never see.
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { isApprovalError } from '../core/approval/approval-client';
import type { DecidedBy } from '../core/prompter/prompter';
import { MCP_META_PREFIX } from '../core/client-identity';
import { isHostError, messageOf } from '../core/host-error';

/** Marks a result the host wrote, not the server (the key the core's legacy path uses too). */
export const HOST_GENERATED_META = 'io.countersign/host-generated';
/** Which host error ended the call. */
export const HOST_ERROR_META = 'io.countersign/host-error';

/** The legacy "open this link first" error: its data IS a question, so it never passes through. */
const URL_ELICITATION_REQUIRED = -32042;

/** The last decision on a call's questions, when the server gave no result of its own. */
export interface LastDecision {
  action: 'accept' | 'decline' | 'cancel';
  decidedBy: DecidedBy;
}

/** Keys a final result must not carry to the agent, at the top level. */
export const WIRE_KEYS: ReadonlySet<string> = new Set([
  'resultType',
  'inputRequests',
  'requestState',
  'inputResponses',
]);

/**
 * The server's result without multi-round-trip material or the server's reserved _meta (the gateway stamps its own).
 */
export function cleanResult(result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result)) {
    if (WIRE_KEYS.has(k)) continue;
    if (k === '_meta' && v && typeof v === 'object') {
      const meta = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).filter(([mk]) => !mk.startsWith(MCP_META_PREFIX)),
      );
      if (Object.keys(meta).length > 0) out._meta = meta;
      continue;
    }
    out[k] = v;
  }
  return out;
}

/**
 * The sentence for a decision, as the agent may report it. Only a person's own decline or cancel is said to be
 * the user's: what the host, a rule or a script decided says who did (no answer without a human).
 */
export function decisionSentence(decision: LastDecision, server: string): string {
  const ended = decision.action === 'decline' ? 'declined' : 'cancelled';
  switch (decision.decidedBy) {
    case 'human':
      return decision.action === 'decline'
        ? 'declined by the user, nothing was changed'
        : 'cancelled by the user (dialog dismissed), nothing was changed';
    case 'mute-rule':
      return (
        `cancelled by Countersign: questions from server "${server}" are muted for this session, ` +
        'nothing was changed'
      );
    case 'call-cancelled':
      return 'cancelled: the call was cancelled while the user was being asked, nothing was changed';
    case 'timeout':
      return 'cancelled by Countersign: nobody answered within the question time limit, nothing was changed';
    case 'policy':
      return `${ended} by Countersign's policy, not a person's choice; nothing was changed`;
    case 'app-closing':
      return 'cancelled: the Countersign app closed while the question waited; nobody answered, nothing was changed';
    case 'input-closed':
      return "cancelled: the terminal's input ended while the question waited; nobody answered, nothing was changed";
    case 'script':
      return `${ended} by a script answering for the user, nothing was changed`;
  }
}

/** One sentence for a host error, naming no part of any question. */
export function hostErrorSentence(error: unknown, server: string): string {
  if (isApprovalError(error)) return error.message;
  if (error instanceof ProtocolError && error.code === URL_ELICITATION_REQUIRED) {
    return `server "${server}" required the user to open a link, which did not complete; the call was stopped`;
  }
  if (!isHostError(error)) return `the call to server "${server}" failed: ${messageOf(error)}`;
  switch (error.code) {
    case 'cancelled':
      return 'the call was cancelled; nothing more was sent to the server';
    case 'round-limit':
      return `server "${server}" kept asking questions past Countersign's round limit; the call was stopped`;
    case 'invalid-schema':
      return (
        `server "${server}" asked a question Countersign cannot show safely; ` +
        'nothing was answered and the call was stopped'
      );
    case 'invalid-answer':
      return (
        `the answer to a question from server "${server}" did not fit its form; ` +
        'nothing was sent and the call was stopped'
      );
    case 'undeclared-request':
      return (
        `server "${server}" asked for input Countersign does not provide ` +
        `(only the user's answers to forms and links); the call was stopped`
      );
    case 'unknown-result-type':
    case 'protocol':
      return (
        `server "${server}" broke the MCP protocol during the call; ` +
        `it was stopped (details are in Countersign's history)`
      );
    case 'connection':
    case 'config':
    case 'task-failed':
    case 'task-expired':
    case 'task-timeout':
    case 'task-limit':
      return error.message;
    // Sign-in: the agent learns only that one is needed or how it ended,
    // never a link, a code, a scope list or an authorization server's text.
    case 'sign-in-needed':
      return `server "${server}" needs the user to sign in; sign-in needed (the user can sign in from Countersign)`;
    // A script or an absent person cannot stand in for a passkey: the agent learns only that one was needed.
    case 'passkey-needed':
      return `declined: needs the person's passkey (a question of server "${server}" asks for it); nothing was changed`;
    case 'auth':
      return error.details?.reason === 'declined'
        ? `the user declined to sign in to server "${server}"; nothing was sent`
        : `signing in to server "${server}" did not complete; the call was stopped`;
  }
}

/**
 * A JSON-RPC error the server itself sent, as it may pass to the agent: code
 * and message only (`data` can carry question material, e.g. -32042's links).
 */
export function serverRpcError(error: unknown): { code: number; message: string } | undefined {
  if (isHostError(error) || !(error instanceof ProtocolError)) return undefined;
  if (error.code === URL_ELICITATION_REQUIRED) return undefined;
  return { code: error.code, message: error.message };
}

/**
 * What a tools/call that threw becomes for the agent. A human decline or
 * cancel is a normal result (not an error) that says so; the server's own
 * JSON-RPC error passes through; a host failure is an isError result with
 * one sentence, marked as written by the host.
 */
export function toolFailure(
  error: unknown,
  server: string,
  decision?: LastDecision,
  options: { outputSchema?: boolean } = {},
): Record<string, unknown> | ProtocolError {
  const rpc = serverRpcError(error);
  const refused = decision && decision.action !== 'accept' ? decisionSentence(decision, server) : undefined;
  if (rpc && refused) {
    return {
      content: [{ type: 'text', text: `${refused} (server "${server}" then answered with an error: ${rpc.message})` }],
      // A tool with an outputSchema must return structured content unless the result is an error.
      ...(options.outputSchema ? { isError: true } : {}),
      _meta: { [HOST_GENERATED_META]: true },
    };
  }
  if (rpc) return new ProtocolError(rpc.code, rpc.message);
  const code = isApprovalError(error) ? String(error.details?.reason) : isHostError(error) ? error.code : 'internal';
  return {
    content: [
      { type: 'text', text: `Countersign: ${refused ? `${refused}. ` : ''}${hostErrorSentence(error, server)}` },
    ],
    isError: true,
    _meta: { [HOST_GENERATED_META]: true, [HOST_ERROR_META]: code },
  };
}

/**
 * The error for a prompts/get or resources/read that threw (these have no
 * isError result): the server's own JSON-RPC error passes through; anything
 * else becomes one sentence.
 */
export function requestFailure(error: unknown, server: string, decision?: LastDecision): ProtocolError {
  const rpc = serverRpcError(error);
  const refused = decision && decision.action !== 'accept' ? `${decisionSentence(decision, server)}. ` : '';
  if (rpc)
    return new ProtocolError(rpc.code, refused ? `${refused}Server "${server}" answered: ${rpc.message}` : rpc.message);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Countersign: ${refused}${hostErrorSentence(error, server)}`,
  );
}

/** What the agent learns about a server it cannot list until the user signs in: its name and the way, no link. */
export function signInNeededSentence(server: string): string {
  return (
    `server "${server}" needs the user to sign in before its tools can be used; ask the user to sign in ` +
    `(in Countersign's Servers view, or: countersign auth login --server "${server}"), then list the tools again`
  );
}

/** What calling a server's sign-in stand-in tool returns (catalog.ts): nothing reaches the server. */
export function signInNeededResult(server: string): CallToolResult {
  return {
    content: [{ type: 'text', text: `Countersign: ${signInNeededSentence(server)}` }],
    isError: true,
    _meta: { [HOST_GENERATED_META]: true, [HOST_ERROR_META]: 'sign-in-needed' },
  };
}
