// `--elicit ask`: the person at the terminal answers. The question is printed
// to stderr (who asks, the task it belongs to, the message, the fields with
// their defaults) and one line is read from stdin, written like any other
// --elicit spec (accept, accept:<json>, accept-defaults, decline, cancel). The
// call waits as long as it takes: no timer runs while the human decides.
// Other specs are used in order as before.
//
// A stdin that ends (EOF) while a question waits is nobody's answer: the
// host ends the question as `cancel` for its own reason ("input-closed"),
// never as the human's or a script's choice, says so on stderr, and the
// command exits 2 once the call is over (see inputClosedExit).
import { createInterface } from 'node:readline';
import type { Question } from '../../shared/elicitation/types';
import { LINE_MAX, terminalText } from '../../shared/terminal-text';
import { HostError } from '../core/host-error';
import type { Prompter, PrompterAnswer } from '../core/prompter/prompter';
import { answerFromSpec, parseElicitSpec, type ElicitSpec } from './elicit-spec';
import type { CliIo } from './io';

/** A spec as the command line gives it: a scripted answer, or "ask the terminal". */
export type ElicitStep = ElicitSpec | { kind: 'ask' };

/** Parse one --elicit value: `ask`, or a scripted spec. */
export function parseElicitStep(text: string): ElicitStep {
  return text.trim() === 'ask' ? { kind: 'ask' } : parseElicitSpec(text);
}

/** Reads one line from the terminal; null when stdin closed (or the call was aborted). */
export type LineReader = (signal: AbortSignal) => Promise<string | null>;

/** One line from the process's stdin (a fresh reader each time, so nothing holds stdin open afterwards). */
export const stdinLine: LineReader = (signal) =>
  new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, terminal: false });
    const done = (line: string | null) => {
      signal.removeEventListener('abort', onAbort);
      rl.removeAllListeners();
      rl.close();
      resolve(line);
    };
    const onAbort = () => done(null);
    signal.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (line) => done(line));
    rl.once('close', () => done(null));
  });

/** The lines that put a question to the person at the terminal; all the server's text in them is shown escaped. */
export function questionLines(question: Question): string[] {
  const t = (s: string) => terminalText(s);
  const o = question.origin;
  const call = o.name ? ` (${t(String(o.method))} ${t(o.name)})` : '';
  const lines = [`[ASK] ${t(o.server)} asks${call}: ${terminalText(question.message, { max: LINE_MAX })}`];
  if (o.task) {
    const minutes = Math.floor(Math.max(0, Date.now() - Date.parse(o.task.startedAt)) / 60_000);
    lines.push(`[ASK] task ${t(o.task.taskId.slice(0, 8))}… of ${t(o.name ?? o.server)}, running ${minutes} min`);
  }
  if (question.mode === 'form') {
    for (const [name, field] of Object.entries(question.requestedSchema.properties)) {
      const f = field as { type?: string; title?: string; default?: unknown; enum?: unknown[] };
      const kind = f.enum ? `one of ${f.enum.map((v) => JSON.stringify(v)).join(', ')}` : (f.type ?? 'value');
      const dflt = f.default !== undefined ? `, default ${JSON.stringify(f.default)}` : '';
      lines.push(`[ASK]   ${t(name)}${f.title ? ` (${t(f.title)})` : ''}: ${t(`${kind}${dflt}`)}`);
    }
  } else
    lines.push(
      `[ASK]   link: ${terminalText(question.url.href, { max: Infinity })} (this terminal does not open links)`,
    );
  lines.push('[ASK] answer: accept | accept:<json object> | accept-defaults | decline | cancel');
  return lines;
}

/** Why the host ended a question when stdin ended: the history's decidedByDetail and the CLI's last line. */
export const INPUT_CLOSED =
  'stdin closed before the question was answered (--elicit ask): Countersign ended it as cancel; nobody answered';

/** Answers from --elicit steps in order; an `ask` step waits for a line from the terminal. */
export class TerminalPrompter implements Prompter {
  private next = 0;
  /** Set once stdin ended while a question waited. */
  inputClosed = false;
  constructor(
    private readonly steps: ElicitStep[],
    private readonly io: Pick<CliIo, 'stderr'>,
    private readonly readLine: LineReader = stdinLine,
    /** True when stdin is a terminal (a person typed the answer), else a script piped it. */
    private readonly interactive = process.stdin.isTTY === true,
  ) {}

  async ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    const step = this.steps[this.next] ?? { kind: 'decline' };
    this.next += 1;
    if (step.kind !== 'ask') return { answer: answerFromSpec(step, question), decidedBy: 'script' };
    for (const line of questionLines(question)) this.io.stderr(line);
    for (;;) {
      const line = await this.readLine(signal);
      if (signal.aborted) throw signal.reason ?? new HostError('cancelled', 'the question was withdrawn');
      if (line === null) {
        this.inputClosed = true;
        this.io.stderr(`[ASK] ${INPUT_CLOSED}`);
        return { answer: { action: 'cancel' }, decidedBy: 'input-closed', decidedByDetail: INPUT_CLOSED };
      }
      try {
        const spec = parseElicitStep(line);
        if (spec.kind === 'ask') throw new HostError('config', '"ask" is not an answer');
        const answer = answerFromSpec(spec, question);
        // Where the human answered, as the history keeps it ("window 1", "tab 2" in the app).
        return this.interactive
          ? { answer, decidedBy: 'human', decidedByDetail: 'terminal' }
          : { answer, decidedBy: 'script' };
      } catch (error) {
        this.io.stderr(`[ASK] ${terminalText((error as Error).message)}; try again`);
      }
    }
  }
}

/**
 * The exit code a command returns instead of its own after stdin ended while
 * a question waited (2, saying why on stderr), or undefined when it did not.
 */
export function inputClosedExit(prompter: TerminalPrompter, io: Pick<CliIo, 'stderr'>): number | undefined {
  if (!prompter.inputClosed) return undefined;
  io.stderr(`countersign: error: ${INPUT_CLOSED}`);
  return 2;
}
