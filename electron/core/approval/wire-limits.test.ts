// The gateway shortens the labels it sends to the wire's limits, and the app's
// schema accepts what it sent: both read WIRE_LIMITS. Every label of a call
// and a question's context made longer than its limit, and a round past the
// last. The server's question itself travels as it came: the app's gate is
// the one that refuses what is too long, with its own sentence.
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../events';
import type { AskContext } from '../prompter/question-gate';
import { LIMITS } from '../limits';
import { WIRE_LIMITS, gatewayFrameSchema } from './protocol';
import { questionContext, rawQuestion, wireCall } from './remote-questions';

const long = (n: number) => 'x'.repeat(n + 50);

describe('the approval wire: the cutters and the schema agree', () => {
  it('a call and a context with every label over its limit are cut to fit, and the app accepts them', () => {
    const call: CallContext = {
      callId: 'c1',
      server: 'kimai',
      era: 'modern',
      protocolVersion: long(WIRE_LIMITS.protocolVersion),
      method: 'tools/call',
      name: long(WIRE_LIMITS.name),
      agent: long(WIRE_LIMITS.agent),
      arguments: { note: long(WIRE_LIMITS.argumentsSummary) },
    };
    const ctx: AskContext = {
      call,
      server: long(WIRE_LIMITS.server),
      era: 'modern',
      round: WIRE_LIMITS.round + 5,
      key: long(WIRE_LIMITS.key),
      roundPosition: { index: 1, count: 2, keys: [long(WIRE_LIMITS.key), 'b'] },
    };
    const message = long(LIMITS.messageChars);
    const params = { mode: 'form', message, requestedSchema: { type: 'object', properties: {} }, elicitationId: 'e' };
    const frame = {
      type: 'ask',
      id: 'a1',
      question: rawQuestion(params),
      context: questionContext(ctx, 0),
      call: wireCall(call),
    };
    const parsed = gatewayFrameSchema.safeParse(frame);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // The question as the server sent it, but only the fields the gate reads.
    expect(frame.question).toEqual({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } });
    const sent = frame.context;
    expect(sent.server).toHaveLength(WIRE_LIMITS.server);
    expect(sent.server.endsWith('…')).toBe(true);
    expect(sent.key).toHaveLength(WIRE_LIMITS.key);
    expect(sent.round).toBe(WIRE_LIMITS.round);
    expect(sent.name).toHaveLength(WIRE_LIMITS.name);
    expect(sent.roundPosition?.keys[0]).toHaveLength(WIRE_LIMITS.key);
    expect(sent.argumentsSummary?.length).toBeLessThanOrEqual(WIRE_LIMITS.argumentsSummary);
    expect(frame.call.name).toHaveLength(WIRE_LIMITS.name);
    // One character more than a limit is what the app refuses.
    const over = { ...frame, call: { ...frame.call, agent: 'y'.repeat(WIRE_LIMITS.agent + 1) } };
    expect(gatewayFrameSchema.safeParse(over).success).toBe(false);
    // Nothing but the fields the gate reads travels as the question.
    const extra = { ...frame, question: { ...frame.question, elicitationId: 'e' } };
    expect(gatewayFrameSchema.safeParse(extra).success).toBe(false);
  });

  it('only the fields the gate reads for the mode travel: a form its schema, a link question its link', () => {
    const schema = { type: 'object', properties: {} };
    const both = { message: 'm', requestedSchema: schema, url: 'https://example.com/' };
    expect(rawQuestion({ ...both, mode: 'url' })).toEqual({ mode: 'url', message: 'm', url: 'https://example.com/' });
    expect(rawQuestion({ ...both, mode: 'form' })).toEqual({ mode: 'form', message: 'm', requestedSchema: schema });
    expect(rawQuestion(both)).toEqual({ message: 'm', requestedSchema: schema });
    expect(rawQuestion({ mode: 'url', message: 'm' })).toEqual({ mode: 'url', message: 'm' });
  });

  it("this gateway's time limit travels in the context only when it is set", () => {
    const ctx: AskContext = { call: null, server: 's', era: 'legacy', round: 1, key: 'k' };
    expect(questionContext(ctx, 0)).not.toHaveProperty('timeLimitMinutes');
    expect(questionContext(ctx, 15).timeLimitMinutes).toBe(15);
  });
});
