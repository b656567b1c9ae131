// The gateway shortens what it sends to the wire's limits, and the app's
// schema accepts what it sent: both read WIRE_LIMITS. Every text field of a
// call and a question made longer than its limit, and a round past the last.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import type { CallContext } from '../events';
import { WIRE_LIMITS, gatewayFrameSchema } from './protocol';
import { wireCall, wireQuestion } from './remote-approval';

const long = (n: number) => 'x'.repeat(n + 50);

describe('the approval wire: the cutters and the schema agree', () => {
  it('a call and a question with every text over its limit are cut to fit, and the app accepts them', () => {
    const call: CallContext = {
      callId: 'c1',
      server: 'kimai',
      era: 'modern',
      protocolVersion: long(WIRE_LIMITS.protocolVersion),
      method: 'tools/call',
      name: long(WIRE_LIMITS.name),
      agent: long(WIRE_LIMITS.agent),
    };
    const question: Question = {
      id: 'q1',
      mode: 'form',
      message: long(WIRE_LIMITS.message),
      requestedSchema: { type: 'object', properties: {} },
      origin: {
        server: long(WIRE_LIMITS.server),
        era: 'modern',
        method: 'tools/call',
        name: long(WIRE_LIMITS.name),
        argumentsSummary: long(WIRE_LIMITS.argumentsSummary),
        round: WIRE_LIMITS.round + 5,
        key: long(WIRE_LIMITS.key),
        roundPosition: { index: 1, count: 2, keys: [long(WIRE_LIMITS.key), 'b'] },
      },
    };
    const frame = { type: 'ask', id: 'a1', question: wireQuestion(question), call: wireCall(call) };
    const parsed = gatewayFrameSchema.safeParse(frame);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const sent = frame.question;
    expect(sent.message).toHaveLength(WIRE_LIMITS.message);
    expect(sent.message.endsWith('…')).toBe(true);
    expect(sent.origin.server).toHaveLength(WIRE_LIMITS.server);
    expect(sent.origin.key).toHaveLength(WIRE_LIMITS.key);
    expect(sent.origin.round).toBe(WIRE_LIMITS.round);
    expect(frame.call.name).toHaveLength(WIRE_LIMITS.name);
    // One character more than a limit is what the app refuses.
    const over = { ...frame, call: { ...frame.call, agent: 'y'.repeat(WIRE_LIMITS.agent + 1) } };
    expect(gatewayFrameSchema.safeParse(over).success).toBe(false);
  });
});
