// assert_url_host judges the host as the shared URL analysis sees it: a
// look-alike Unicode host matches in its Unicode and its xn-- form, and
// never the ASCII name it imitates.
import { describe, expect, it } from 'vitest';
import type { UrlQuestion } from '../../../shared/elicitation/types';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { judge, type CallObservation } from './assertions';
import { parseScript } from './parser';

const step = (text: string) => parseScript(text, 'x').cases[0]!.steps[0]!;

function urlCall(href: string): CallObservation {
  const question: UrlQuestion = {
    id: 'q',
    mode: 'url',
    message: 'Sign in',
    url: analyzeUrl(href),
    origin: { server: 's', era: 'modern', method: 'tools/call', name: 't', round: 1, key: 'k' },
  };
  return { source: 'call_tool t', era: 'modern', questions: [question], rounds: 1, result: { content: [] } };
}

describe('assert_url_host', () => {
  // "pаypal.com" with a Cyrillic а (U+0430).
  const lookalike = urlCall('https://xn--pypal-4ve.com/login');

  it('matches the Unicode and the xn-- form of the host', () => {
    expect(analyzeUrl('https://xn--pypal-4ve.com/login').hostUnicode).toBe('p\u0430ypal.com');
    expect(judge(step('assert_url_host p\u0430ypal.com'), lookalike).ok).toBe(true);
    expect(judge(step('assert_url_host XN--PYPAL-4VE.com'), lookalike).ok).toBe(true);
  });

  it('does not match the ASCII name a look-alike imitates, and says what it saw', () => {
    const v = judge(step('assert_url_host paypal.com'), lookalike);
    expect(v).toEqual({ ok: false, expected: 'a URL question for host paypal.com', seen: 'host p\u0430ypal.com' });
  });
});

describe('judge without a call', () => {
  it('every assertion fails when the case has made no call yet', () => {
    expect(judge(step('assert_not_elicited'), undefined)).toEqual({
      ok: false,
      expected: 'a call_tool, call_prompt or read_resource earlier in this case',
      seen: 'no call yet',
    });
  });
});
