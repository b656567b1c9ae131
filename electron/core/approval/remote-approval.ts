// A Host whose questions go to the running app: a Prompter that asks over
// the approval channel, and an observer that sends the app the one part of
// the story only this process sees: how each call that asked there ended.
// The question and answer entries are written by the app itself, so the app
// stays the one history writer and the answer is on disk before it is sent.
// The gateway's own faults stay here: the app records only what it saw on
// the connection (./approval-server.ts), and a call's end carries the error
// the agent got.
import type { CallContext, HostObserver, StateDigest } from '../events';
import { HostError } from '../host-error';
import { capLine } from '../limits';
import type { Prompter, PrompterAnswer } from '../prompter/prompter';
import type { Question } from '../../../shared/elicitation/types';
import { ApprovalClient, type ApprovalClientOptions } from './approval-client';
import { WIRE_LIMITS, type WireCall, type WireQuestion } from './protocol';
import { RemoteSignIns } from './remote-sign-in';

/** The longest link the channel carries (the wire schema's limit). */
const MAX_URL_CHARS = WIRE_LIMITS.url;

/** Limits of the wire schema; longer values are cut, never refused. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The call as it travels: no arguments (the question carries their summary). */
export function wireCall(call: CallContext): WireCall {
  return {
    callId: call.callId,
    server: call.server,
    era: call.era,
    protocolVersion: cut(call.protocolVersion, WIRE_LIMITS.protocolVersion),
    method: call.method,
    name: cut(call.name, WIRE_LIMITS.name),
    ...(call.agent !== undefined ? { agent: cut(call.agent, WIRE_LIMITS.agent) } : {}),
  };
}

/** The question as it travels, every field within the wire limits. */
export function wireQuestion(q: Question): WireQuestion {
  const o = q.origin;
  const origin: WireQuestion['origin'] = {
    server: cut(o.server, WIRE_LIMITS.server),
    era: o.era,
    method: o.method,
    name: o.name === null ? null : cut(o.name, WIRE_LIMITS.name),
    round: Math.min(o.round, WIRE_LIMITS.round),
    key: cut(o.key, WIRE_LIMITS.key),
    ...(o.argumentsSummary !== undefined
      ? { argumentsSummary: cut(o.argumentsSummary, WIRE_LIMITS.argumentsSummary) }
      : {}),
    // Where the question stands in its round, so the app's dialog says so for gateway questions too.
    ...(o.roundPosition !== undefined && o.roundPosition.count <= WIRE_LIMITS.roundQuestions
      ? { roundPosition: { ...o.roundPosition, keys: o.roundPosition.keys.map((k) => cut(k, WIRE_LIMITS.key)) } }
      : {}),
    ...(o.lastRound ? { lastRound: true as const } : {}),
  };
  const message = cut(q.message, WIRE_LIMITS.message);
  if (q.mode === 'url') {
    // A link is never shortened: the app must open exactly what the server sent, or nothing.
    if (q.url.href.length > MAX_URL_CHARS)
      throw new HostError(
        'invalid-schema',
        `server "${o.server}" sent a link longer than ${MAX_URL_CHARS} characters; it cannot be shown`,
      );
    return { id: q.id, mode: 'url', origin, message, url: { href: q.url.href } };
  }
  return {
    id: q.id,
    mode: 'form',
    origin,
    message,
    requestedSchema: { ...q.requestedSchema },
  };
}

interface AskContext {
  call: CallContext | null;
  requestState?: StateDigest;
}

/** The remote half of a Host: its prompter, its observer, and the channel under both. */
export interface RemoteApproval {
  prompter: Prompter;
  observer: HostObserver;
  client: ApprovalClient;
  /** Sign-ins through the app: the Host's `open` for their links. */
  signIns: RemoteSignIns;
}

/** Build the prompter/observer pair for a Host whose human sits in the app. */
export function createRemoteApproval(options: ApprovalClientOptions): RemoteApproval {
  const client = new ApprovalClient(options);
  // The gate reports a question (with its call) just before it asks the
  // prompter, which sees only the Question: this map joins the two.
  const contexts = new Map<string, AskContext>();

  const observer: HostObserver = {
    questionAsked(e) {
      contexts.set(e.question.id, { call: e.call, ...(e.requestState ? { requestState: e.requestState } : {}) });
    },
    callEnded(e) {
      // Calls that never asked stay out of the history, as pass-through traffic: the app never saw them begin.
      if (!client.awaitsEnd(e.call.callId)) return;
      client.callEnded({
        callId: e.call.callId,
        outcome: e.outcome,
        ...(e.isError !== undefined ? { isError: e.isError } : {}),
        ...(e.error !== undefined ? { error: capLine(e.error) } : {}),
        rounds: Math.min(e.rounds, 10_000),
      });
    },
  };

  const signIns = new RemoteSignIns(client);
  const prompter: Prompter = {
    // The app at the other end takes a round at once, as its own calls' rounds.
    asksRoundsTogether: true,
    ...signIns.prompter,
    async ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
      const ctx = contexts.get(question.id);
      contexts.delete(question.id);
      return client.ask(
        {
          question: wireQuestion(question),
          call: ctx?.call ? wireCall(ctx.call) : null,
          ...(ctx?.requestState ? { requestState: ctx.requestState } : {}),
        },
        signal,
      );
    },
  };

  return { prompter, observer, client, signIns };
}
