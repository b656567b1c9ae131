// `--elicit` specs: scripted answers for the headless CLI. Each spec answers
// one question, in order; once they run out, further questions are declined
// (never accepted: a script must say yes explicitly).
import { defaultsOf } from '../../shared/elicitation/defaults';
import { terminalText } from '../../shared/terminal-text';
import type { Answer, AnswerContent, Question } from '../../shared/elicitation/types';
import { HostError } from '../core/host-error';
import type { Prompter, PrompterAnswer } from '../core/prompter/prompter';

/** One parsed spec. */
export type ElicitSpec =
  | { kind: 'accept' }
  | { kind: 'accept-defaults' }
  | { kind: 'accept-content'; content: AnswerContent }
  | { kind: 'decline' }
  | { kind: 'cancel' };

/** Parse `accept`, `accept:<json object>`, `accept-defaults`, `decline` or `cancel`. */
export function parseElicitSpec(text: string): ElicitSpec {
  const t = text.trim();
  if (t === 'accept' || t === 'accept-defaults' || t === 'decline' || t === 'cancel') return { kind: t };
  if (t.startsWith('accept:')) {
    let content: unknown;
    try {
      content = JSON.parse(t.slice('accept:'.length));
    } catch (e) {
      throw new HostError(
        'config',
        `--elicit ${JSON.stringify(text)}: the text after "accept:" is not valid JSON (${(e as Error).message})`,
      );
    }
    if (typeof content !== 'object' || content === null || Array.isArray(content)) {
      throw new HostError('config', `--elicit ${JSON.stringify(text)}: the text after "accept:" must be a JSON object`);
    }
    return { kind: 'accept-content', content: content as AnswerContent };
  }
  throw new HostError(
    'config',
    `--elicit ${JSON.stringify(text)}: expected accept, accept:<json object>, accept-defaults, decline or cancel`,
  );
}

/** Turn a spec into the answer for one question. */
export function answerFromSpec(spec: ElicitSpec, question: Question): Answer {
  switch (spec.kind) {
    case 'decline':
    case 'cancel':
      return { action: spec.kind };
    case 'accept':
      return question.mode === 'form' ? { action: 'accept', content: {} } : { action: 'accept' };
    case 'accept-defaults':
      return question.mode === 'form'
        ? { action: 'accept', content: defaultsOf(question.requestedSchema) }
        : { action: 'accept' };
    case 'accept-content':
      // Like a dialog: defaults pre-filled, the script's values on top.
      return question.mode === 'form'
        ? { action: 'accept', content: { ...defaultsOf(question.requestedSchema), ...spec.content } }
        : { action: 'accept' };
  }
}

/** A prompter that answers from a list of specs, then with a fallback. */
export class ScriptedPrompter implements Prompter {
  private next = 0;
  constructor(
    private readonly specs: ElicitSpec[],
    /** Used once the list is used up: `decline` for `call`, a policy for `exercise`. */
    private readonly fallback: ElicitSpec = { kind: 'decline' },
  ) {}

  async ask(question: Question, _signal?: AbortSignal): Promise<PrompterAnswer> {
    const spec = this.specs[this.next] ?? this.fallback;
    this.next += 1;
    return { answer: answerFromSpec(spec, question), decidedBy: 'script' };
  }
}

/** The one stderr line the CLI prints per answered question. */
export function elicitLogLine(question: Question, answer: Answer): string {
  // The server, message and link are the server's: escaped (and cut) before they are printed.
  const content =
    answer.action === 'accept' && answer.content !== undefined
      ? ` ${terminalText(JSON.stringify(answer.content))}`
      : '';
  const target = question.mode === 'url' ? ` <${terminalText(question.url.href)}>` : '';
  return (
    `[ELICIT] ${terminalText(question.origin.server)} ${question.mode} ` +
    `"${terminalText(question.message)}"${target} -> ${answer.action}${content}`
  );
}
