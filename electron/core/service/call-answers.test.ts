// The rules of CallAnswers that the real fixtures cannot all reach: a later
// round overrides an earlier one, a round is its worst answer whatever the
// order, a legacy question is a round of its own, a host decision keeps its
// own name, a question still waiting is nobody's answer, and the memory is bounded.
import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../../shared/elicitation/types';
import type { DecidedBy } from '../prompter/prompter';
import type { CallContext } from '../events';
import { CallAnswers } from './call-answers';

const call = (callId: string): CallContext => ({
  callId,
  server: 'demo',
  era: 'modern',
  protocolVersion: '2026-07-28',
  method: 'tools/call',
  name: 'book',
});

let n = 0;
function answer(
  answers: CallAnswers,
  callId: string,
  given: Answer['action'] | 'asked',
  {
    era = 'modern',
    round = 1,
    decidedBy = 'human',
    taskId,
  }: Partial<{ era: 'modern' | 'legacy'; round: number; decidedBy: DecidedBy; taskId: string }> = {},
): Question {
  const question: Question = {
    id: `q${++n}`,
    mode: 'form',
    message: 'Book it?',
    requestedSchema: { type: 'object', properties: {} },
    origin: {
      server: 'demo',
      era,
      method: 'tools/call',
      name: 'book',
      round,
      key: `k${n}`,
      ...(taskId ? { task: { taskId, startedAt: new Date(0).toISOString() } } : {}),
    },
  };
  if (given === 'asked') {
    void answers.observer.questionAsked?.({ call: call(callId), question, askedAt: new Date(0).toISOString() });
    return question;
  }
  const a: Answer = given === 'accept' ? { action: 'accept', content: {} } : { action: given };
  void answers.observer.answerRecorded?.({
    call: call(callId),
    question,
    answer: a,
    decidedBy,
    answeredAt: new Date(0).toISOString(),
  });
  return question;
}

describe('CallAnswers', () => {
  it('the last round decides: declined at round 1, accepted at round 2 is accepted', () => {
    const answers = new CallAnswers();
    answer(answers, 'c1', 'decline', { round: 1 });
    answer(answers, 'c1', 'accept', { round: 2 });
    expect(answers.forCall('c1')).toEqual({ action: 'accept', decidedBy: 'human' });
  });

  it('within one modern round the worst answer wins, in either order', () => {
    const answers = new CallAnswers();
    answer(answers, 'c1', 'decline', { round: 3 });
    answer(answers, 'c1', 'accept', { round: 3 });
    answer(answers, 'c2', 'accept', { round: 1 });
    answer(answers, 'c2', 'cancel', { round: 1 });
    answer(answers, 'c2', 'decline', { round: 1 });
    expect(answers.forCall('c1')?.action).toBe('decline');
    expect(answers.forCall('c2')?.action).toBe('cancel');
  });

  it('legacy questions (all "round 1") are each a round of their own: the last one decides', () => {
    const answers = new CallAnswers();
    answer(answers, 'c1', 'decline', { era: 'legacy' });
    answer(answers, 'c1', 'accept', { era: 'legacy' });
    expect(answers.forCall('c1')?.action).toBe('accept');
  });

  it('keeps who decided: a time limit is not the person, and a task is remembered by its id', () => {
    const answers = new CallAnswers();
    answer(answers, 'c1', 'cancel', { decidedBy: 'timeout', taskId: 't1' });
    expect(answers.forCall('c1')).toEqual({ action: 'cancel', decidedBy: 'timeout' });
    expect(answers.forTask('t1')).toEqual({ action: 'cancel', decidedBy: 'timeout' });
    expect(answers.forTask('c1')).toBeUndefined();
  });

  it('a question still waiting makes the call unanswered, whatever was answered before it', () => {
    const answers = new CallAnswers();
    answer(answers, 'c1', 'accept', { round: 1 });
    const q = answer(answers, 'c1', 'asked', { round: 2, taskId: 't1' });
    expect(answers.forCall('c1')).toEqual({ action: 'cancel', decidedBy: 'call-cancelled' });
    expect(answers.forTask('t1')).toEqual({ action: 'cancel', decidedBy: 'call-cancelled' });
    // Its answer arrives: then that answer is what the round was.
    void answers.observer.answerRecorded?.({
      call: call('c1'),
      question: q,
      answer: { action: 'decline' },
      decidedBy: 'human',
      answeredAt: new Date(0).toISOString(),
    });
    expect(answers.forCall('c1')).toEqual({ action: 'decline', decidedBy: 'human' });
    expect(answers.forTask('t1')).toEqual({ action: 'decline', decidedBy: 'human' });
  });

  it('remembers at most 1000 calls, forgetting the least recently answered first', () => {
    const answers = new CallAnswers();
    for (let i = 0; i < 1001; i++) answer(answers, `c${i}`, 'decline');
    expect(answers.forCall('c0')).toBeUndefined();
    expect(answers.forCall('c1')).toBeDefined();
    expect(answers.forCall('c1000')).toBeDefined();
    // Answering c1 again makes it the newest: the next one to go is c2.
    answer(answers, 'c1', 'accept', { round: 2 });
    answer(answers, 'c1001', 'accept');
    expect(answers.forCall('c1')?.action).toBe('accept');
    expect(answers.forCall('c2')).toBeUndefined();
  });
});
