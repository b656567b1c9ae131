// Shared set-up for integration tests: a real Host on a real fixture server,
// answering from a list of specs and recording every event the core emits.
import type { ServerEntry } from '../../electron/core/config/server-config';
import type {
  AnswerEvent,
  CallEndedEvent,
  FaultEvent,
  HostObserver,
  QuestionAskedEvent,
} from '../../electron/core/events';
import { Host, type HostBaseOptions } from '../../electron/core/host';
import type { Prompter } from '../../electron/core/prompter/prompter';
import { ScriptedPrompter, type ElicitSpec } from '../../electron/cli/elicit-spec';
import {
  fixtureCommand,
  newWireLogPath,
  readWireLog,
  type FixtureKind,
  type WireLogEntry,
} from '../fixtures/spawn-fixture';

/** Everything the core reported during a test. */
export interface Recorded {
  asked: QuestionAskedEvent[];
  answers: AnswerEvent[];
  ended: CallEndedEvent[];
  faults: FaultEvent[];
}

export function recorder(): { observer: HostObserver; events: Recorded } {
  const events: Recorded = { asked: [], answers: [], ended: [], faults: [] };
  return {
    events,
    observer: {
      questionAsked: (e) => void events.asked.push(e),
      answerRecorded: (e) => void events.answers.push(e),
      callEnded: (e) => void events.ended.push(e),
      fault: (e) => void events.faults.push(e),
    },
  };
}

/** A stdio fixture entry with its own wire log. */
export function stdioFixture(kind: FixtureKind): { entry: ServerEntry; wireLog: string } {
  const wireLog = newWireLogPath(kind);
  const { command, args } = fixtureCommand(kind);
  return { entry: { command, args, env: { FIXTURE_WIRE_LOG: wireLog } }, wireLog };
}

/** What a test may change of hostFor's Host: any option, and who answers. */
export type HostExtras = Partial<HostBaseOptions> & { prompter?: Prompter };

/** A Host on one server named "fx" answering from `specs` (or `extra.prompter`). */
export function hostFor(entry: ServerEntry, specs: ElicitSpec[], extra: HostExtras = {}) {
  const rec = recorder();
  const host = new Host({
    servers: { fx: entry },
    observer: rec.observer,
    pacingDelayMs: 50,
    ...extra,
    prompter: extra.prompter ?? new ScriptedPrompter(specs),
  });
  return { host, events: rec.events };
}

/** Whether a wire log entry is a request the server received (of `method`, if given). */
export function isReceivedRequest(e: WireLogEntry, method?: string): boolean {
  return e.dir === 'in' && typeof e.msg?.method === 'string' && 'id' in e.msg && (!method || e.msg.method === method);
}

/** The requests the server received, in order. */
export function receivedRequests(wireLog: string, method?: string): WireLogEntry[] {
  return readWireLog(wireLog).filter((e) => isReceivedRequest(e, method));
}

/** The responses the server sent to the given request ids. */
export function sentResponses(wireLog: string): Map<unknown, WireLogEntry> {
  const out = new Map<unknown, WireLogEntry>();
  for (const e of readWireLog(wireLog))
    if (e.dir === 'out' && e.msg && 'id' in e.msg && !('method' in e.msg)) out.set(e.msg.id, e);
  return out;
}

export const ENVELOPE_KEYS = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
];
