// Runs a parsed script on one open Host session in one era: queues the
// elicit_response answers for the next call, runs each call through the
// core's own call machinery (the same Host, gate and ScriptedPrompter that
// `countersign call --elicit` uses), records what the call asked and
// returned, and judges each assertion. One session per era; cases run in
// order on it, each starting with no queued answers and no last call.
import { performance } from 'node:perf_hooks';
import type { Question } from '../../../shared/elicitation/types';
import type { HostObserver } from '../../core/events';
import type { Host } from '../../core/host';
import { isHostError, messageOf } from '../../core/host-error';
import type { Prompter, PrompterAnswer } from '../../core/prompter/prompter';
import { ScriptedPrompter, type ElicitSpec } from '../elicit-spec';
import { judge, type CallObservation } from './assertions';
import type { Script, ScriptCase, Step } from './steps';

/**
 * The Host's prompter during a test: each call gets a fresh ScriptedPrompter
 * over the answers queued since the previous call, so questions beyond the
 * queue are declined exactly as in `call`.
 */
export class QueuedAnswers implements Prompter {
  private current = new ScriptedPrompter([]);
  /** Hand the queued specs to the next call's questions. */
  load(specs: ElicitSpec[]): void {
    this.current = new ScriptedPrompter(specs);
  }
  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    return this.current.ask(question, signal);
  }
}

/** An observer that collects what one call asked and how many rounds it took. */
export class CallRecorder implements HostObserver {
  questions: Question[] = [];
  rounds = 0;
  reset(): void {
    this.questions = [];
    this.rounds = 0;
  }
  questionAsked = ({ question }: { question: Question }): void => {
    this.questions.push(question);
  };
  callEnded = ({ rounds }: { rounds: number }): void => {
    this.rounds = rounds;
  };
}

/** What happened to one step. `error` means the session failed there; `skipped` steps never ran. */
export interface StepOutcome {
  step: Step;
  era: 'modern' | 'legacy';
  status: 'pass' | 'fail' | 'error' | 'skipped';
  expected?: string;
  seen?: string;
  /** Extra facts for a passing step (e.g. answers left unused). */
  note?: string;
}

/** One case's outcomes in one era. */
export interface CaseRun {
  case: ScriptCase;
  outcomes: StepOutcome[];
  durationMs: number;
}

/** A whole script in one era. */
export interface EraRun {
  era: 'modern' | 'legacy';
  protocolVersion: string;
  cases: CaseRun[];
  /** Set when the session failed: later steps are `skipped`. */
  sessionError?: string;
}

/** The open session a run uses. */
export interface EraSession {
  host: Host;
  server: string;
  era: 'modern' | 'legacy';
  protocolVersion: string;
  answers: QueuedAnswers;
  recorder: CallRecorder;
}

/** Run every case of `script` on `session`; `onStep` sees each outcome as it happens. */
export async function runScript(
  script: Script,
  session: EraSession,
  options: { signal?: AbortSignal; onStep?: (outcome: StepOutcome) => void } = {},
): Promise<EraRun> {
  const run: EraRun = { era: session.era, protocolVersion: session.protocolVersion, cases: [] };
  for (const scriptCase of script.cases) {
    const started = performance.now();
    const outcomes: StepOutcome[] = [];
    const emit = (outcome: StepOutcome) => {
      outcomes.push(outcome);
      options.onStep?.(outcome);
    };
    let queued: ElicitSpec[] = [];
    let last: CallObservation | undefined;
    for (const [i, step] of scriptCase.steps.entries()) {
      if (run.sessionError) {
        emit({ step, era: session.era, status: 'skipped' });
        continue;
      }
      if (step.kind === 'elicit_response') {
        queued.push(step.spec);
        emit({ step, era: session.era, status: 'pass' });
      } else if (step.kind === 'call') {
        const answers = queued;
        queued = [];
        last = await runCall(session, step, answers, options.signal);
        const expectsError = expectsHostError(scriptCase.steps.slice(i + 1));
        if (last.error && !expectsError) {
          const fatal = last.error.code === 'connection' || last.error.code === 'cancelled';
          if (fatal) run.sessionError = last.error.message;
          emit({
            step,
            era: session.era,
            status: fatal ? 'error' : 'fail',
            expected: 'a result (no assert_host_error follows)',
            seen: `host error ${last.error.code}: ${last.error.message}`,
          });
        } else {
          const unused = Math.max(0, answers.length - last.questions.length);
          emit({
            step,
            era: session.era,
            status: 'pass',
            ...(unused > 0 ? { note: `${unused} queued answer(s) unused` } : {}),
          });
        }
      } else {
        const v = judge(step, last);
        emit(
          v.ok
            ? { step, era: session.era, status: 'pass' }
            : { step, era: session.era, status: 'fail', expected: v.expected, seen: v.seen },
        );
      }
    }
    run.cases.push({ case: scriptCase, outcomes, durationMs: performance.now() - started });
  }
  return run;
}

/** True when an assert_host_error follows before the next call: the error is the point of the case. */
function expectsHostError(rest: Step[]): boolean {
  for (const step of rest) {
    if (step.kind === 'call') return false;
    if (step.kind === 'assert_host_error') return true;
  }
  return false;
}

async function runCall(
  session: EraSession,
  step: Extract<Step, { kind: 'call' }>,
  answers: ElicitSpec[],
  signal: AbortSignal | undefined,
): Promise<CallObservation> {
  session.answers.load(answers);
  session.recorder.reset();
  const observation: CallObservation = { source: step.source, era: session.era, questions: [], rounds: 0 };
  try {
    const { result } = await session.host.call({
      server: session.server,
      method: step.method,
      name: step.name,
      ...(step.arguments ? { arguments: step.arguments } : {}),
      ...(signal ? { signal } : {}),
    });
    observation.result = result;
  } catch (error) {
    // A JSON-RPC error from the server is not the host's: report it as `protocol`, as `call --json` does.
    observation.error = { code: isHostError(error) ? error.code : 'protocol', message: messageOf(error) };
  }
  observation.questions = [...session.recorder.questions];
  const rounds = session.recorder.rounds;
  // Legacy servers push one elicitation/create per question: each is a round trip of its own.
  observation.rounds = session.era === 'legacy' && rounds === 0 ? observation.questions.length : rounds;
  return observation;
}
