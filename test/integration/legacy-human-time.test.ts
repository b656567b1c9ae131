// A legacy server asks inside its tools/call request, so the human's time
// used to count against that request's timeout (the SDK's 60 s): the dialog
// vanished mid-typing and the call failed. Here the host's request timeout is
// shrunk to 1 s and the "human" takes longer: the answer must still reach the
// server. And a call that ends while its question is open withdraws it: an
// answer given afterwards is never sent.
import { afterEach, describe, expect, it } from 'vitest';
import { answerFromSpec, type ElicitSpec } from '../../electron/cli/elicit-spec';
import { openSession } from '../../electron/cli/session';
import type { Host } from '../../electron/core/host';
import type { Prompter, PrompterAnswer } from '../../electron/core/prompter/prompter';
import type { Question } from '../../shared/elicitation/types';
import { readWireLog } from '../fixtures/spawn-fixture';
import { hostFor, stdioFixture } from './host-harness';

const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;

/** A human who takes `ms` to decide, and (like a careless UI) may ignore the call ending meanwhile. */
class SlowHuman implements Prompter {
  asked: Question[] = [];
  constructor(
    private readonly ms: number,
    private readonly spec: ElicitSpec,
    private readonly honoursAbort = true,
  ) {}
  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    this.asked.push(question);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => resolve({ answer: answerFromSpec(this.spec, question), decidedBy: 'human' }),
        this.ms,
      );
      if (this.honoursAbort)
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
    });
  }
}

/** What the host answered to the server's elicitation/create requests. */
function elicitAnswers(wireLog: string): unknown[] {
  const entries = readWireLog(wireLog);
  const ids = new Set(
    entries.filter((e) => e.dir === 'out' && e.msg?.method === 'elicitation/create').map((e) => e.msg.id),
  );
  return entries
    .filter((e) => e.dir === 'in' && ids.has(e.msg?.id) && !('method' in e.msg))
    .map((e) => e.msg.result ?? e.msg.error);
}

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('the human’s time on a legacy call', () => {
  it('a form left open longer than the request timeout, then answered, reaches the server', async () => {
    const fx = stdioFixture('legacy');
    const human = new SlowHuman(2_500, { kind: 'accept-defaults' });
    const { host, events } = hostFor(fx.entry, [], { prompter: human, requestTimeoutMs: 1_000 });
    open = host;
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'book_time', arguments: {} });
    expect(result.isError).toBeFalsy();
    const answer = events.answers[0]!;
    expect(answer).toMatchObject({ decidedBy: 'human', answer: { action: 'accept' } });
    expect(result.structuredContent).toEqual((answer.answer as { content: unknown }).content);
    expect(events.ended[0]).toMatchObject({ outcome: 'complete' });
  });

  it('the same through the CLI’s session (the Host `call` and `exercise` run on)', async () => {
    const fx = stdioFixture('legacy');
    const human = new SlowHuman(2_500, { kind: 'accept-defaults' });
    const session = await openSession({
      io: { stdout: () => undefined, stderr: () => undefined, env: {} },
      target: { name: 'fx', entry: fx.entry },
      prompter: human,
      maxRounds: 10,
      recordHistory: false,
      observers: [],
      requestTimeoutMs: 1_000,
    });
    try {
      const { result } = await session.host.call({ server: 'fx', method: 'tools/call', name: 'book_time' });
      expect(result.isError).toBeFalsy();
      expect(human.asked).toHaveLength(1);
    } finally {
      await session.close();
    }
  });

  it('a call that ends while its question is open withdraws the question; nothing is sent for it', async () => {
    const fx = stdioFixture('legacy');
    const human = new SlowHuman(60_000, { kind: 'accept' });
    const { host, events } = hostFor(fx.entry, [], { prompter: human });
    open = host;
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'ask_and_leave', arguments: {} });
    expect(text(result)).toBe('moved on without an answer');
    await expect.poll(() => events.answers.length).toBe(1);
    expect(events.answers[0]).toMatchObject({ decidedBy: 'call-cancelled', answer: { action: 'cancel' } });
    await expect.poll(() => elicitAnswers(fx.wireLog).length).toBe(1);
    expect(elicitAnswers(fx.wireLog)).toEqual([{ action: 'cancel' }]);
  });

  it('an answer given after the call ended is never sent (checked at the gate)', async () => {
    const fx = stdioFixture('legacy');
    // This "human" ignores the withdrawal and answers anyway, after the call is over.
    const human = new SlowHuman(1_200, { kind: 'accept-content', content: { note: 'late yes' } }, false);
    const { host, events } = hostFor(fx.entry, [], { prompter: human });
    open = host;
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'ask_and_leave', arguments: {} });
    expect(text(result)).toBe('moved on without an answer');
    await expect.poll(() => events.answers.length, { timeout: 5_000 }).toBe(1);
    expect(events.answers[0]).toMatchObject({ decidedBy: 'call-cancelled', answer: { action: 'cancel' } });
    await expect.poll(() => elicitAnswers(fx.wireLog).length, { timeout: 5_000 }).toBe(1);
    expect(JSON.stringify(elicitAnswers(fx.wireLog))).not.toContain('late yes');
  });

  it('a -32042 call is retried on the human’s word, with no elicitation/complete from the server', async () => {
    const fx = stdioFixture('legacy');
    const { host, events } = hostFor(fx.entry, [{ kind: 'accept' }]);
    open = host;
    const { result } = await host.call({ server: 'fx', method: 'tools/call', name: 'needs_auth_silent' });
    expect(text(result)).toBe('authorized without a completion notice');
    expect(events.asked[0]!.question.mode).toBe('url');
  });
});
