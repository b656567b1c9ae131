// A Host whose questions go to the running app: the approval channel, the
// QuestionAsker that hands questions to the app's gate (./remote-questions.ts),
// the sign-ins that go there too, and an observer that sends the app the one
// part of the story only this process sees: how each call that asked there
// ended. The question and answer entries are written by the app itself, so
// the app stays the one history writer and the answer is on disk before it
// is sent. The gateway's own faults stay here: the app records only what it
// saw on the connection (./approval-server.ts), and a call's end carries the
// error the agent got.
import type { HostObserver } from '../events';
import { capLine } from '../limits';
import { stderrLog } from '../terminal-output';
import type { QuestionAsker, QuestionAskerDeps } from '../prompter/question-gate';
import { ApprovalClient, type ApprovalClientOptions } from './approval-client';
import { RemoteQuestions } from './remote-questions';
import { RemoteSignIns } from './remote-sign-in';

/** The remote half of a Host: its questions, sign-ins and observer, and the channel under them. */
export interface RemoteApproval {
  /** HostOptions.questions: every question goes to the app's gate. */
  questions(deps: QuestionAskerDeps): QuestionAsker;
  observer: HostObserver;
  client: ApprovalClient;
  /** Sign-ins through the app: the Host prompter's signIn, and its `open` for their links. */
  signIns: RemoteSignIns;
}

/** Build the channel and its parts for a Host whose human sits in the app. */
export function createRemoteApproval(options: ApprovalClientOptions): RemoteApproval {
  const client = new ApprovalClient(options);
  const observer: HostObserver = {
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
  return {
    questions: (deps) => new RemoteQuestions(client, deps, options.log ?? stderrLog),
    observer,
    client,
    signIns: new RemoteSignIns(client),
  };
}
