import { describe, expect, it } from 'vitest';
import type { FormQuestion } from '../../shared/elicitation/types';
import {
  INPUT_CLOSED,
  inputClosedExit,
  parseElicitStep,
  questionLines,
  TerminalPrompter,
  type LineReader,
} from './terminal-prompter';

const question: FormQuestion = {
  id: 'q1',
  mode: 'form',
  message: 'Approve?',
  origin: { server: 'ci', era: 'modern', method: 'tools/call', name: 'deploy', round: 1, key: 'approve' },
  requestedSchema: { type: 'object', properties: { note: { type: 'string', title: 'Note', default: 'ok' } } },
};

function lines(...answers: Array<string | null>): LineReader {
  return async () => (answers.length ? answers.shift()! : null);
}

describe('--elicit ask', () => {
  it('prints the question, reads an answer line, asks again after a bad one', async () => {
    const err: string[] = [];
    const p = new TerminalPrompter([{ kind: 'ask' }], { stderr: (t) => err.push(t) }, lines('yes', 'accept-defaults'));
    const got = await p.ask(question, new AbortController().signal);
    expect(got).toEqual({ answer: { action: 'accept', content: { note: 'ok' } }, decidedBy: 'script' });
    expect(err[0]).toBe('[ASK] ci asks (tools/call deploy): Approve?');
    expect(err).toContain('[ASK]   note (Note): string, default "ok"');
    expect(err.some((l) => /^\[ASK\] --elicit "yes": expected accept.*; try again$/.test(l))).toBe(true);
  });

  it('a person at a terminal is the human; scripted steps still come in order around an ask', async () => {
    const tty = new TerminalPrompter([{ kind: 'ask' }], { stderr: () => undefined }, lines('decline'), true);
    expect(await tty.ask(question, new AbortController().signal)).toEqual({
      answer: { action: 'decline' },
      decidedBy: 'human',
      decidedByDetail: 'terminal',
    });
    const closed = new TerminalPrompter(
      [parseElicitStep('accept'), parseElicitStep('ask')],
      { stderr: () => undefined },
      lines(null),
    );
    expect((await closed.ask(question, new AbortController().signal)).answer).toEqual({
      action: 'accept',
      content: {},
    });
    expect((await closed.ask(question, new AbortController().signal)).answer).toEqual({ action: 'cancel' });
    expect(closed.inputClosed).toBe(true);
    // Past the last step: declined, as with scripted answers.
    expect((await closed.ask(question, new AbortController().signal)).answer).toEqual({ action: 'decline' });
  });

  it('stdin ending while a question waits is the host ending it for its reason, not anyone choosing cancel', async () => {
    for (const interactive of [true, false]) {
      const err: string[] = [];
      const p = new TerminalPrompter([{ kind: 'ask' }], { stderr: (t) => err.push(t) }, lines(null), interactive);
      const got = await p.ask(question, new AbortController().signal);
      expect(got).toEqual({ answer: { action: 'cancel' }, decidedBy: 'input-closed', decidedByDetail: INPUT_CLOSED });
      expect(err.at(-1)).toBe(`[ASK] ${INPUT_CLOSED}`);
      // The command then exits 2, saying why, whatever the server made of the cancel.
      const exit: string[] = [];
      expect(inputClosedExit(p, { stderr: (t) => exit.push(t) })).toBe(2);
      expect(exit).toEqual([`countersign: error: ${INPUT_CLOSED}`]);
    }
    const answered = new TerminalPrompter([{ kind: 'ask' }], { stderr: () => undefined }, lines('decline'), true);
    await answered.ask(question, new AbortController().signal);
    expect(inputClosedExit(answered, { stderr: () => undefined })).toBeUndefined();
  });

  it('names the task a question comes from', () => {
    const startedAt = new Date(Date.now() - 125_000).toISOString();
    const text = questionLines({
      ...question,
      origin: { ...question.origin, task: { taskId: '4f2a9c81-0000', startedAt } },
    });
    expect(text[1]).toBe('[ASK] task 4f2a9c81… of deploy, running 2 min');
  });
});
