// The passkey step of the question gate: after the person accepts a question
// that needs their passkey (Settings → Passkeys, or a server that asks for
// verified approvals), the payload of exactly that answer is issued, the
// person confirms it on the ceremony page, and the assertion is checked
// against the answer as it is about to be sent. Only then does the accept go
// out, with its receipt. Decline and Cancel never need a passkey.
//
// What it cannot be asked to do: confirm without the person. A prompter that
// has no passkey step (a script's --elicit accept, a test script) gets a
// refusal naming why, and nothing is sent.
import type { Answer, Question } from '../../../shared/elicitation/types';
import type { DecidedBy, PasskeyRecordBody } from '../../../shared/history/journal-types';
import type { Settings } from '../../../shared/host-api/contract';
import { HostError, messageOf } from '../host-error';
import type { CeremonyServer } from './ceremony-server';
import type { ApprovedCall, ServerIdentity } from './payload';
import type { PasskeyStore } from './passkey-store';
import type { Receipt } from './receipt';
import { PasskeyRefusal } from './signed-payload';

/** The passkey step of an accepted question: where its confirmation page is, and why it is needed. */
export interface PasskeyStep {
  question: Question;
  /** http://localhost:PORT/ceremony/TOKEN: the host's own page. */
  url: string;
  reason: string;
}

/** How a passkey step ended without the page: a cancel, and who chose it (the person, or the app closing). */
export interface StepEnded {
  answer: Answer;
  decidedBy: DecidedBy;
  decidedByDetail?: string;
}

/** What shows the passkey step (the app's queue; see Prompter.confirmWithPasskey). */
export interface PasskeyStepper {
  confirmWithPasskey?(step: PasskeyStep, signal: AbortSignal): Promise<StepEnded>;
}

/** Settings → Passkeys. */
export type PasskeyPolicy = Settings['passkeys'];

/** Why `question`'s accept needs a passkey under `policy`, in the host's words; undefined when it does not. */
export function passkeyRequirement(policy: PasskeyPolicy, question: Question): string | undefined {
  const o = question.origin;
  // An app's link question sends nothing to anyone; the passkey step is the host's own.
  if (o.app || o.passkeyStep) return undefined;
  if (policy.every) return 'Settings → Passkeys asks for a passkey on every accept';
  if (o.toolHints?.verifiedApproval) return `server "${o.server}" asks for passkey-verified approvals of this tool`;
  if (policy.destructive && o.toolHints?.destructive)
    return 'the server marks this tool destructive, and Settings → Passkeys asks for a passkey on those';
  const chosen = policy.chosen.find((c) => c.server === o.server && (c.tool === undefined || c.tool === o.name));
  if (chosen)
    return chosen.tool === undefined
      ? `Settings → Passkeys asks for a passkey on every accept for server "${o.server}"`
      : `Settings → Passkeys asks for a passkey on "${chosen.tool}" of server "${o.server}"`;
  return undefined;
}

/** The call an answer belongs to, as it will be sent. */
export interface GuardedCall {
  server: string;
  tool: string;
  arguments: unknown;
  /** SHA-256 (hex) of the round's requestState, when it carried one. */
  requestStateSha256?: string;
  /** The arguments are not known here (a gateway's call whose arguments were too large to travel). */
  argumentsUnknown?: true;
}

/** What the passkey step came to; `record` is what the history keeps with the answer. */
export type PasskeyOutcome =
  | { status: 'confirmed'; receipt: Receipt; record: PasskeyRecordBody }
  | { status: 'fallback'; record: PasskeyRecordBody }
  | { status: 'cancelled'; record: PasskeyRecordBody; ended: StepEnded }
  | { status: 'refused'; record: PasskeyRecordBody; error: HostError };

export interface PasskeyGuardOptions {
  policy: () => PasskeyPolicy;
  /** The data folder's passkeys. */
  store: () => Promise<PasskeyStore>;
  /** The ceremony server (started on first use); absent where no page can be shown (the CLI). */
  ceremony?: () => Promise<CeremonyServer>;
  /** How a configured server is reached (its name plus command or URL); undefined for one this host does not know. */
  identity: (server: string) => ServerIdentity | undefined;
}

/** The refusal for an answer that needs a passkey nobody here can give. */
export function passkeyNeeded(reason: string, why: string): HostError {
  return new HostError(
    'passkey-needed',
    `this accept needs the person's passkey (${reason}), and ${why}; nothing was sent`,
    { reason },
  );
}

/** Runs the passkey step of accepted answers. */
export class PasskeyGuard {
  constructor(private readonly options: PasskeyGuardOptions) {}

  /** Whether a tool's hints decide (a passkey on destructive tools): the host then reads tools/list before a call. */
  needsToolHints(): boolean {
    return this.options.policy().destructive;
  }

  /** Why the accept of `question` needs a passkey; undefined when it does not. */
  requirement(question: Question): string | undefined {
    return passkeyRequirement(this.options.policy(), question);
  }

  /**
   * Confirm `answer` (an accept, checked) to `question` with the person's passkey through `prompter`. Throws a
   * passkey-needed HostError when nobody here can confirm, and rejects with `signal.reason` when the call ends.
   */
  async confirm(
    question: Question,
    answer: Answer,
    call: GuardedCall,
    reason: string,
    prompter: PasskeyStepper,
    signal: AbortSignal,
  ): Promise<PasskeyOutcome> {
    const store = await this.options.store();
    if (!store.list().some((p) => !p.revoked))
      return {
        status: 'fallback',
        record: {
          status: 'fallback',
          reason,
          detail: 'no passkey is registered (none yet, or every one revoked), so the plain Accept was sent',
        },
      };
    if (!prompter.confirmWithPasskey || !this.options.ceremony)
      throw passkeyNeeded(reason, 'this run has nobody to confirm it (only the Countersign app or its web shell can)');
    if (call.argumentsUnknown)
      throw passkeyNeeded(
        reason,
        "the gateway could not send the call's arguments (too large), so no payload can name them",
      );
    const server = this.options.identity(call.server);
    if (!server)
      throw passkeyNeeded(reason, `server "${call.server}" is not configured in this app, so no payload can name it`);
    const ceremony = await this.options.ceremony();
    const approved: ApprovedCall = {
      server,
      tool: call.tool,
      arguments: call.arguments ?? null,
      question: { message: question.message, schema: question.mode === 'form' ? question.requestedSchema : null },
      answer,
      ...(call.requestStateSha256 ? { requestStateSha256: call.requestStateSha256 } : {}),
    };
    const payload = ceremony.verifier.issue(approved);
    const page = ceremony.approve(payload);
    const stepOver = new AbortController();
    const step = prompter.confirmWithPasskey(
      { question, url: page.url, reason },
      AbortSignal.any([signal, stepOver.signal]),
    );
    type Ended =
      | { kind: 'posted'; response: unknown }
      | { kind: 'page-failed'; error: unknown }
      | { kind: 'cancelled'; ended: StepEnded };
    let ended: Ended;
    try {
      ended = await Promise.race<Ended>([
        page.result.then(
          (response) => ({ kind: 'posted', response }),
          (error: unknown) => ({ kind: 'page-failed', error }),
        ),
        step.then((stepEnded) => ({ kind: 'cancelled', ended: stepEnded }) as const),
      ]);
    } catch (error) {
      // The step left because the call ended: its page goes too.
      page.abandon();
      throw error;
    }
    page.abandon();
    if (ended.kind === 'cancelled')
      return {
        status: 'cancelled',
        ended: ended.ended,
        record: {
          status: 'cancelled',
          reason,
          detail:
            ended.ended.decidedBy === 'human'
              ? 'cancelled at the passkey step'
              : 'the passkey step ended before the page confirmed',
        },
      };
    let receipt: Receipt | undefined;
    let refusal: string | undefined;
    if (ended.kind === 'page-failed') refusal = messageOf(ended.error);
    else
      try {
        receipt = await ceremony.verifier.verify(payload, ended.response, approved);
      } catch (error) {
        if (!(error instanceof PasskeyRefusal)) throw error;
        refusal = error.message;
      }
    stepOver.abort(
      new HostError(
        'cancelled',
        receipt ? 'confirmed with your passkey' : `the passkey confirmation failed: ${refusal}`,
      ),
    );
    step.catch(() => undefined);
    if (receipt)
      return {
        status: 'confirmed',
        receipt,
        record: {
          status: 'confirmed',
          reason,
          receipt: receiptRecord(receipt),
        },
      };
    const detail = `the passkey confirmation was refused: ${refusal ?? 'no result'}`;
    return {
      status: 'refused',
      record: { status: 'refused', reason, detail },
      error: new HostError('invalid-answer', `${detail}; nothing was sent`, { reason }),
    };
  }
}

/** A receipt as the history keeps it (the journal's types know no core type). */
function receiptRecord(receipt: Receipt): NonNullable<PasskeyRecordBody['receipt']> {
  return { format: receipt.format, payload: { ...receipt.payload }, assertion: { ...receipt.assertion } };
}
