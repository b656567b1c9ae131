// The host's input limits (electron/core/limits.ts), against real fixture
// servers that ask too much: each limit ends the call with a clear error that
// names it, and nothing past the limit is shown or journaled.
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../shared/elicitation/types';
import type { Host } from '../../electron/core/host';
import { isHostError } from '../../electron/core/host-error';
import { LIMITS } from '../../electron/core/limits';
import type { Prompter, PrompterAnswer } from '../../electron/core/prompter/prompter';
import { hostFor, recorder, stdioFixture } from './host-harness';
import { Host as HostClass } from '../../electron/core/host';

let open: Host | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function setup(kind: 'modern' | 'legacy') {
  const h = hostFor(stdioFixture(kind).entry, []);
  open = h.host;
  return h;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('the call did not fail');
}

describe('input limits', () => {
  it('names the host\'s own read limit when a message outgrows it, not "the server closed the connection"', async () => {
    const { host } = setup('modern');
    const e = await failure(
      host.call({ server: 'fx', method: 'tools/call', name: 'flood', arguments: { messageChars: 11_000_000 } }),
    );
    expect(e.message).toBe(
      `server "fx" sent a message larger than the host's limit of 10485760 bytes (10 MiB), so the host closed the connection`,
    );
  });

  it(`refuses a round of more than ${LIMITS.questionsPerRound} questions before asking any`, async () => {
    const { host, events } = setup('modern');
    const e = await failure(
      host.call({ server: 'fx', method: 'tools/call', name: 'flood', arguments: { keys: 10_000 } }),
    );
    expect(e.message).toBe(
      `server "fx" sent 10000 questions in one round, over the host's limit of ${LIMITS.questionsPerRound}; nothing more was asked`,
    );
    expect(events.asked).toHaveLength(0);
    expect(events.faults.map((f) => f.code)).toEqual(['protocol']);
  });

  it('refuses a message or a form schema over its limit, on every path (the gate), and journals none of it', async () => {
    const { host, events } = setup('modern');
    const big = await failure(
      host.call({ server: 'fx', method: 'tools/call', name: 'flood', arguments: { messageChars: 9_000_000 } }),
    );
    expect(big.message).toMatch(
      new RegExp(
        `whose message is 9000000 characters, over the host's limit of ${LIMITS.messageChars}; it was not shown`,
      ),
    );
    const wide = await failure(
      host.call({ server: 'fx', method: 'tools/call', name: 'flood', arguments: { schemaProps: 3_000 } }),
    );
    expect(wide.message).toMatch(/whose form schema is \d+ characters, over the host's limit of 65536/);
    expect(events.asked).toHaveLength(0);
    expect(JSON.stringify(events).length).toBeLessThan(20_000);
  });

  it(`ends a legacy call after ${LIMITS.legacyQuestionsPerCall} questions`, async () => {
    const { host, events } = setup('legacy');
    const e = await failure(
      host.call({ server: 'fx', method: 'tools/call', name: 'flood', arguments: { count: 500 } }),
    );
    expect(e.message).toContain(
      `sent ${LIMITS.legacyQuestionsPerCall + 1} questions (elicitation/create) during one tools/call, over the host's limit of ${LIMITS.legacyQuestionsPerCall}`,
    );
    expect(events.asked).toHaveLength(LIMITS.legacyQuestionsPerCall);
  });

  it(`holds at most ${LIMITS.pendingPerServer} questions from one server waiting for the human`, async () => {
    const waiting: Question[] = [];
    const holding: Prompter = {
      ask: (q, signal) =>
        new Promise<PrompterAnswer>((_resolve, reject) => {
          waiting.push(q);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const rec = recorder();
    const host = new HostClass({
      servers: { fx: stdioFixture('modern').entry },
      prompter: holding,
      observer: rec.observer,
    });
    open = host;
    const controller = new AbortController();
    const calls = Array.from({ length: LIMITS.pendingPerServer + 3 }, (_, i) =>
      host
        .call({
          server: 'fx',
          method: 'tools/call',
          name: 'confirm_delete',
          arguments: { entryId: i },
          signal: controller.signal,
        })
        .catch((e: unknown) => e),
    );
    // Up to 20 s for every call to be asked or refused (it ends as soon as they are; one server, many calls, a
    // loaded machine).
    for (let i = 0; i < 800 && waiting.length + rec.events.faults.length < calls.length; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(waiting).toHaveLength(LIMITS.pendingPerServer);
    const refused = rec.events.faults.filter((f) => f.message.includes('questions waiting for the user'));
    expect(refused).toHaveLength(3);
    expect(refused[0]!.message).toBe(
      `server "fx" already has ${LIMITS.pendingPerServer} questions waiting for the user (the host's limit is ${LIMITS.pendingPerServer}); this one was not shown`,
    );
    controller.abort();
    const settled = await Promise.all(calls);
    expect(settled.every((e) => isHostError(e))).toBe(true);
  });
});
