import { describe, expect, it } from 'vitest';
import { noticeFor, waitingQuestion, type WaitingQuestion } from './notice';

const book: WaitingQuestion = { mode: 'form', server: 'kimai', tool: 'book' };

describe('noticeFor', () => {
  it('names the server and the tool of one question, in both languages', () => {
    expect(noticeFor([book], 'en')).toEqual({
      title: 'Countersign: a question is waiting',
      body: '"kimai" asks for your input (tool "book").',
    });
    expect(noticeFor([{ ...book, mode: 'url' }], 'de')).toEqual({
      title: 'Countersign: eine Frage wartet',
      body: '„kimai“ bittet Sie, einen Link zu öffnen (Werkzeug „book“).',
    });
    expect(noticeFor([{ ...book, tool: null }], 'en').body).toBe('"kimai" asks for your input.');
  });

  it('coalesces a burst: "3 questions from kimai", naming each tool once', () => {
    const burst = [book, { ...book, tool: 'delete_time_entry' }, book];
    expect(noticeFor(burst, 'en')).toEqual({
      title: 'Countersign: 3 questions are waiting',
      body: '3 questions from "kimai" ("book", "delete_time_entry").',
    });
    expect(noticeFor(burst, 'de').body).toBe('3 Fragen von „kimai“ („book“, „delete_time_entry“).');
  });

  it('lists at most three servers of a mixed burst, without tools', () => {
    const mixed = ['a', 'b', 'c', 'd'].map((server) => ({ ...book, server }));
    expect(noticeFor(mixed, 'en').body).toBe('4 questions from "a", "b", "c", ….');
  });

  it('keeps hostile names to one short printable line', () => {
    const evil = { mode: 'form' as const, server: `evil\n\u202eserver${'x'.repeat(100)}`, tool: 'a\u0000b\u2028c' };
    const { body } = noticeFor([evil], 'en');
    expect(body).not.toMatch(/[\n\u202e\u0000\u2028]/);
    expect(body.length).toBeLessThan(120);
    expect(body).toContain('"a b c"');
  });

  it('adds a message only when asked, cut to 120 characters, quoted in the language', () => {
    const q = {
      mode: 'form' as const,
      message: `Deploy billing?\n${'x'.repeat(300)}`,
      origin: { server: 'ci', name: 'deploy' },
    };
    expect(waitingQuestion(q, 'names')).toEqual({ mode: 'form', server: 'ci', tool: 'deploy' });
    const shown = waitingQuestion(q, 'message');
    const body = noticeFor([shown], 'de').body;
    const [names, message] = body.split('\n');
    expect(names).toBe('„ci“ bittet um Ihre Angaben (Werkzeug „deploy“).');
    expect(message).toMatch(/^„Deploy billing\? x+…“$/);
    expect(message!.length).toBe(120 + 2);
  });
});
