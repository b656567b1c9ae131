// The desktop/web prompter's queue: what it records when nobody answers.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import type { HostEvents } from '../../../shared/host-api/contract';
import { Emitter } from './emitter';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { QueuePrompter } from './queue-prompter';

const question: Question = {
  id: 'q1',
  mode: 'form',
  origin: { server: 'demo', era: 'modern', method: 'tools/call', name: 'book', round: 1, key: 'k' },
  message: 'Book it?',
  requestedSchema: { type: 'object', properties: {} },
};

describe('QueuePrompter', () => {
  it('records a question cancelled by the app closing as decided by the app closing, not by the human', async () => {
    const events = new Emitter<HostEvents>();
    const removed: Array<HostEvents['questionRemoved']> = [];
    events.on('questionRemoved', (p) => removed.push(p));
    const prompter = new QueuePrompter(events, async () => undefined);
    const asked = prompter.ask(question, new AbortController().signal);
    expect(prompter.size).toBe(1);
    prompter.cancelAll();
    const answer = await asked;
    expect(answer.answer).toEqual({ action: 'cancel' });
    expect(answer.decidedBy).toBe('app-closing');
    expect(removed.map((r) => r.questionId)).toEqual(['q1']);
    expect(prompter.size).toBe(0);
  });

  it('a human answer is still recorded as the human', async () => {
    const prompter = new QueuePrompter(new Emitter<HostEvents>(), async () => undefined);
    const asked = prompter.ask(question, new AbortController().signal);
    prompter.answer('q1', { action: 'decline' });
    await expect(asked).resolves.toEqual({ answer: { action: 'decline' }, decidedBy: 'human' });
  });

  it('keeps where the human answered (the window or tab the transport names)', async () => {
    const prompter = new QueuePrompter(new Emitter<HostEvents>(), async () => undefined);
    const asked = prompter.ask(question, new AbortController().signal);
    prompter.answer('q1', { action: 'accept', content: {} }, 'tab 2');
    await expect(asked).resolves.toEqual({
      answer: { action: 'accept', content: {} },
      decidedBy: 'human',
      decidedByDetail: 'tab 2',
    });
  });

  describe("links in 'tab' mode (the web shell)", () => {
    const urlQuestion = (id: string, href: string): Question => ({
      id,
      mode: 'url',
      origin: { server: 'demo', era: 'modern', method: 'tools/call', name: 'connect', round: 1, key: 'k' },
      message: 'Connect your account',
      url: analyzeUrl(href),
    });

    it('hands back the link as the host re-checked it, and never calls the system opener', async () => {
      const opened: string[] = [];
      const prompter = new QueuePrompter(new Emitter<HostEvents>(), async (u) => void opened.push(u), 'tab');
      void prompter.ask(urlQuestion('q1', 'https://EXAMPLE.com:443/a b'), new AbortController().signal);
      await expect(prompter.openUrl('q1')).resolves.toEqual({ opened: true, openHere: 'https://example.com/a%20b' });
      expect(opened).toEqual([]);
    });

    it('hands back nothing for a link the check blocks, or a question that is no longer waiting', async () => {
      const prompter = new QueuePrompter(new Emitter<HostEvents>(), async () => undefined, 'tab');
      void prompter.ask(urlQuestion('q1', 'javascript:alert(1)'), new AbortController().signal);
      const blocked = await prompter.openUrl('q1');
      expect(blocked.opened).toBe(false);
      expect(blocked.openHere).toBeUndefined();
      expect(blocked.reason).toMatch(/^the link is blocked/);
      await expect(prompter.openUrl('gone')).resolves.toEqual({
        opened: false,
        reason: 'the question is no longer waiting',
      });
    });

    it('the system mode opens through the opener and hands nothing back (the desktop app)', async () => {
      const opened: string[] = [];
      const prompter = new QueuePrompter(new Emitter<HostEvents>(), async (u) => void opened.push(u));
      void prompter.ask(urlQuestion('q1', 'https://example.com/x'), new AbortController().signal);
      await expect(prompter.openUrl('q1')).resolves.toEqual({ opened: true });
      expect(opened).toEqual(['https://example.com/x']);
    });
  });
});
