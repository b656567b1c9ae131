import { describe, expect, it } from 'vitest';
import type { FormQuestion } from '../../../shared/elicitation/types';
import { canonicalJson } from './canonical-json';
import { answerEntry, questionEntry } from './entries';

const question: FormQuestion = {
  id: 'q1',
  mode: 'form',
  origin: {
    server: 'kimai',
    era: 'modern',
    method: 'tools/call',
    name: 'book_time',
    round: 1,
    key: 'booking',
    argumentsSummary: 'project=4',
  },
  message: 'Book 2h?',
  requestedSchema: {
    type: 'object',
    properties: { project: { type: 'string' }, hours: { type: 'number' }, billable: { type: 'boolean' } },
    required: ['project'],
  },
};

describe('history entries', () => {
  it('keeps the order the form showed its fields, which canonical JSON would sort away', () => {
    const entry = questionEntry(question, { callId: 'c1', protocolVersion: '2026-07-28' });
    expect(entry.fieldOrder).toEqual(['project', 'hours', 'billable']);
    const stored = JSON.parse(canonicalJson(entry)) as typeof entry;
    expect(Object.keys(stored.requestedSchema!.properties)).toEqual(['billable', 'hours', 'project']);
    expect(stored.fieldOrder).toEqual(['project', 'hours', 'billable']);
  });

  it('records who asked, for which call, and the answer with who decided', () => {
    expect(questionEntry(question, { callId: 'c1' })).toMatchObject({
      kind: 'question',
      questionId: 'q1',
      callId: 'c1',
      server: { name: 'kimai', era: 'modern' },
      call: { method: 'tools/call', name: 'book_time', argumentsSummary: 'project=4' },
      round: 1,
      key: 'booking',
      mode: 'form',
    });
    expect(
      answerEntry(question, { action: 'accept', content: { project: 'cs' } }, { decidedBy: 'human', callId: 'c1' }),
    ).toMatchObject({
      kind: 'answer',
      action: 'accept',
      decidedBy: 'human',
      content: { project: 'cs' },
    });
  });
});
