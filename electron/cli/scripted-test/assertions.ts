// Judges one assert_* step against what the last call of its case showed.
// Every verdict says what was expected and what was seen, in words a server
// developer can act on without re-running with a debugger.
import { isDeepStrictEqual } from 'node:util';
import type { Question } from '../../../shared/elicitation/types';
import type { Step } from './steps';

/** What one call step showed: its questions, rounds and result or error. */
export interface CallObservation {
  /** The call step as written. */
  source: string;
  era: 'modern' | 'legacy';
  questions: Question[];
  /**
   * Input rounds: modern, the input_required replies answered; legacy, each
   * elicitation/create is its own round trip, so one per question (plus the
   * -32042 retries, which carry their questions in the error).
   */
  rounds: number;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** The outcome of one assertion. */
export interface Verdict {
  ok: boolean;
  expected: string;
  seen: string;
}

const MAX_SEEN = 240;

/** A value for a report line, quoted and cut to a readable length. */
export function shown(text: string): string {
  const one = JSON.stringify(text);
  return one.length > MAX_SEEN ? `${one.slice(0, MAX_SEEN - 2)}…"` : one;
}

/** The text a result carries: tool content, prompt messages or resource contents. */
export function resultText(result: Record<string, unknown>): string {
  const texts: string[] = [];
  const take = (item: unknown) => {
    if (typeof item !== 'object' || item === null) return;
    const { text, content } = item as { text?: unknown; content?: unknown };
    if (typeof text === 'string') texts.push(text);
    else if (content) take(content);
  };
  for (const key of ['content', 'messages', 'contents']) {
    const list = result[key];
    if (Array.isArray(list)) list.forEach(take);
  }
  return texts.length > 0 ? texts.join('\n') : JSON.stringify(result);
}

function outcomeOf(call: CallObservation): string {
  if (call.error) return `host error ${call.error.code}: ${call.error.message}`;
  return `result ${shown(resultText(call.result ?? {}))}${call.result?.isError === true ? ' (isError)' : ''}`;
}

function messages(call: CallObservation): string {
  if (call.questions.length === 0) return 'no question';
  return call.questions.map((q) => shown(q.message)).join(', ');
}

function verdict(ok: boolean, expected: string, seen: string): Verdict {
  return { ok, expected, seen };
}

/** Judge an assert_* step. `last` is the case's last call, if any. */
export function judge(step: Step, last: CallObservation | undefined): Verdict {
  if (!last) return verdict(false, 'a call_tool, call_prompt or read_resource earlier in this case', 'no call yet');
  const forms = last.questions.filter((q) => q.mode === 'form');
  switch (step.kind) {
    case 'assert_elicited':
      return verdict(
        last.questions.some((q) => q.message.includes(step.text)),
        `a question containing ${shown(step.text)}`,
        messages(last),
      );
    case 'assert_not_elicited':
      return step.text === undefined
        ? verdict(last.questions.length === 0, 'no question', messages(last))
        : verdict(
            !last.questions.some((q) => q.message.includes(step.text!)),
            `no question containing ${shown(step.text)}`,
            messages(last),
          );
    case 'assert_contains':
    case 'assert_not_contains': {
      const wanted = step.kind === 'assert_contains';
      const expected = `a result whose text ${wanted ? 'contains' : 'does not contain'} ${shown(step.text)}`;
      if (!last.result) return verdict(false, expected, outcomeOf(last));
      return verdict(resultText(last.result).includes(step.text) === wanted, expected, outcomeOf(last));
    }
    case 'assert_questions':
      return verdict(
        last.questions.length === step.count,
        `${step.count} question(s)`,
        `${last.questions.length}: ${messages(last)}`,
      );
    case 'assert_rounds':
      return verdict(last.rounds === step.count, `${step.count} round(s)`, `${last.rounds} round(s) (${last.era})`);
    case 'assert_mode':
      return verdict(
        last.questions.length > 0 && last.questions.every((q) => q.mode === step.mode),
        `every question in ${step.mode} mode`,
        last.questions.length === 0 ? 'no question' : last.questions.map((q) => q.mode).join(', '),
      );
    case 'assert_url_host': {
      const hosts = last.questions.flatMap((q) => (q.mode === 'url' ? [q.url.hostUnicode || q.url.host] : []));
      const want = step.host.toLowerCase();
      const asciiHosts = last.questions.flatMap((q) => (q.mode === 'url' ? [q.url.host] : []));
      return verdict(
        [...hosts, ...asciiHosts].some((h) => h.toLowerCase() === want),
        `a URL question for host ${step.host}`,
        hosts.length === 0 ? 'no URL question' : `host ${hosts.join(', ')}`,
      );
    }
    case 'assert_field': {
      const fields = forms.flatMap((q) => Object.entries(q.requestedSchema.properties));
      const ok = fields.some(([name, prop]) => name === step.field && (!step.type || prop.type === step.type));
      return verdict(
        ok,
        `a form field ${step.field}${step.type ? ` of type ${step.type}` : ''}`,
        fields.length === 0 ? 'no form field' : `fields ${fields.map(([n, p]) => `${n} (${p.type})`).join(', ')}`,
      );
    }
    case 'assert_default': {
      const props = forms.flatMap((q) =>
        Object.entries(q.requestedSchema.properties).filter(([name]) => name === step.field),
      );
      const ok = props.some(([, prop]) => isDeepStrictEqual(prop.default, step.value));
      const seen =
        props.length === 0
          ? `no form field ${step.field}`
          : props.map(([, p]) => (p.default === undefined ? 'no default' : JSON.stringify(p.default))).join(', ');
      return verdict(ok, `field ${step.field} with default ${JSON.stringify(step.value)}`, seen);
    }
    case 'assert_is_error':
      return verdict(last.result?.isError === true, 'a result with isError true', outcomeOf(last));
    case 'assert_not_error':
      return verdict(!!last.result && last.result.isError !== true, 'a result with isError false', outcomeOf(last));
    case 'assert_host_error':
      return verdict(last.error?.code === step.code, `host error ${step.code}`, outcomeOf(last));
    default:
      return verdict(false, 'an assertion', step.source);
  }
}
