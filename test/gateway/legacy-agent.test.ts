// A 2025-era agent (initialize handshake) through the gateway: the same
// servers, the same human, and still nothing of any question reaches the
// agent, although its era has a server-to-client elicitation/create request
// the gateway could have (and must never have) used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelFromAgent, leaks, startGatewaySetup, textOf, type App, type GatewaySetup, type Reply } from './harness';

let setup: GatewaySetup;
let app: App;
let agent: GatewaySetup['agent'];

beforeAll(async () => {
  setup = await startGatewaySetup({ era: 'legacy', name: 'old-agent' });
  ({ app, agent } = setup);
});

afterAll(async () => {
  await setup?.close();
});

const serverStrings = () => setup.serverStrings();
const call = (name: string, args: Record<string, unknown>, replies: Reply[], forbidden: string[]) =>
  setup.call(name, args, replies, forbidden);

describe('a legacy agent through the gateway', () => {
  it('negotiates the 2025 era with the gateway', async () => {
    expect(agent.client.getNegotiatedProtocolVersion()).not.toBe('2026-07-28');
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['modern__two_rounds', 'legacy__book_time']));
  });

  it('questions of a modern server go to the human; the agent gets the final result', async () => {
    expect(
      textOf(await call('modern__confirm_delete', { entryId: 5 }, [{ action: 'decline' }], ['Delete time entry 5?'])),
    ).toBe('declined by the user, nothing was deleted');
    const r = await call(
      'modern__two_rounds',
      {},
      [{ action: 'accept', content: { name: 'Grace' } }, { action: 'cancel' }],
      ['What name should the booking use?', 'Book the time for Grace?'],
    );
    expect(textOf(r)).toBe('cancelled at round 2, nothing was booked for Grace');
  });

  it('questions of a legacy server go to the human too (form with content, and URL)', async () => {
    const r = await call(
      'legacy__book_time',
      {},
      [
        {
          action: 'accept',
          content: { description: 'Reviewing legacy paths', day: '2026-08-02', hours: 1, category: 'support' },
        },
      ],
      ['Book time on Countersign', 'What did you work on?', 'Reviewing legacy paths'],
    );
    expect(JSON.parse(textOf(r))).toMatchObject({ description: 'Reviewing legacy paths', category: 'support' });
    const url = await call(
      'legacy__connect_account',
      {},
      [
        async (q, a) => {
          await a.service.invoke('openQuestionUrl', { questionId: q.id });
          return { action: 'accept' };
        },
      ],
      ['https://example.com/oauth'],
    );
    expect(textOf(url)).toBe('account connected');
  });

  it('labels its questions with the legacy clientInfo', () => {
    expect(new Set(app.history.asked.map((e) => e.call?.agent))).toEqual(
      new Set([expect.stringMatching(/^old-agent 1\.0\.0 \(stdio-[0-9a-f]{6}\)$/)]),
    );
  });

  it('cancelling from the agent withdraws the dialog', async () => {
    await cancelFromAgent(app, agent, 'legacy__confirm_delete', { entryId: 8 });
  });

  it('never sends the agent a request, whatever it declared', () => {
    expect(agent.violations).toEqual([]);
    expect(leaks(agent.received, [], serverStrings())).toEqual([]);
  });
});
