import { describe, expect, it } from 'vitest';
import type { FormQuestion, UrlQuestion } from '../../shared/elicitation/types';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { isHostError } from '../core/host-error';
import { answerFromSpec, elicitLogLine, parseElicitSpec, ScriptedPrompter } from './elicit-spec';

const origin = {
  server: 'kimai',
  era: 'modern' as const,
  method: 'tools/call' as const,
  name: 'book',
  round: 1,
  key: 'q',
};
const form: FormQuestion = {
  id: '1',
  mode: 'form',
  origin,
  message: 'Book 2h?',
  requestedSchema: { type: 'object', properties: { hours: { type: 'number', default: 2 }, note: { type: 'string' } } },
};
const url: UrlQuestion = {
  id: '2',
  mode: 'url',
  origin,
  message: 'Connect',
  url: analyzeUrl('https://example.com/a?b=c'),
};

describe('--elicit specs', () => {
  it('parses the five forms', () => {
    expect(parseElicitSpec('accept')).toEqual({ kind: 'accept' });
    expect(parseElicitSpec('accept-defaults')).toEqual({ kind: 'accept-defaults' });
    expect(parseElicitSpec('decline')).toEqual({ kind: 'decline' });
    expect(parseElicitSpec('cancel')).toEqual({ kind: 'cancel' });
    expect(parseElicitSpec('accept:{"note":"x"}')).toEqual({ kind: 'accept-content', content: { note: 'x' } });
  });

  it('rejects malformed specs with a clear message', () => {
    for (const [text, part] of [
      ['yes', 'expected accept'],
      ['accept:{', 'not valid JSON'],
      ['accept:[1]', 'must be a JSON object'],
    ] as const) {
      try {
        parseElicitSpec(text);
        throw new Error('no error');
      } catch (e) {
        expect(isHostError(e, 'config')).toBe(true);
        expect((e as Error).message).toContain(part);
      }
    }
  });

  it('accept sends {} , accept-defaults fills defaults, accept:<json> overlays defaults', () => {
    expect(answerFromSpec({ kind: 'accept' }, form)).toEqual({ action: 'accept', content: {} });
    expect(answerFromSpec({ kind: 'accept-defaults' }, form)).toEqual({ action: 'accept', content: { hours: 2 } });
    expect(answerFromSpec({ kind: 'accept-content', content: { note: 'n', hours: 3 } }, form)).toEqual({
      action: 'accept',
      content: { hours: 3, note: 'n' },
    });
    expect(answerFromSpec({ kind: 'accept-defaults' }, url)).toEqual({ action: 'accept' });
    expect(answerFromSpec({ kind: 'cancel' }, form)).toEqual({ action: 'cancel' });
  });

  it('answers in order and declines once the specs run out', async () => {
    const p = new ScriptedPrompter([{ kind: 'cancel' }]);
    const signal = new AbortController().signal;
    expect((await p.ask(form, signal)).answer).toEqual({ action: 'cancel' });
    expect(await p.ask(form, signal)).toEqual({ answer: { action: 'decline' }, decidedBy: 'script' });
  });

  it('prints the [ELICIT] line', () => {
    expect(elicitLogLine(form, { action: 'accept', content: { hours: 2 } })).toBe(
      '[ELICIT] kimai form "Book 2h?" -> accept {"hours":2}',
    );
    expect(elicitLogLine(url, { action: 'decline' })).toBe(
      '[ELICIT] kimai url "Connect" <https://example.com/a?b=c> -> decline',
    );
  });
});
