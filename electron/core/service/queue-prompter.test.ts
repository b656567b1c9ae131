// The desktop/web prompter's queue: what it records when nobody answers.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import type { HostEvents } from '../../../shared/host-api/contract';
import { Emitter } from './emitter';
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
});
