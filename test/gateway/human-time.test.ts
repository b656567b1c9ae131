// Through the gateway (a real process) to a legacy server, whose question
// arrives inside its tools/call request: the human takes longer than the
// gateway's request timeout (shrunk to 1 s here), and the answer still
// reaches the server, because the host stops that request's clock while a
// question is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf } from '../../shared/elicitation/defaults';
import type { AnswerContent } from '../../shared/elicitation/types';
import { makeDataDir, startAgent, startApp, textOf, type App } from './harness';

let app: App;
let agent: Awaited<ReturnType<typeof startAgent>>;

beforeAll(async () => {
  const made = makeDataDir({ legacy: 'legacy' });
  app = await startApp(made.dataDir);
  agent = await startAgent(made.dataDir, { env: { COUNTERSIGN_GATEWAY_REQUEST_TIMEOUT_MS: '1000' } });
});

afterAll(async () => {
  await agent?.close();
  await app?.close();
});

describe('the human’s time through the gateway', () => {
  it('a legacy form answered after longer than the request timeout reaches the server', async () => {
    let answered: AnswerContent | undefined;
    app.reply(async (q) => {
      await new Promise((r) => setTimeout(r, 2_500));
      if (q.mode !== 'form') return { action: 'cancel' };
      answered = defaultsOf(q.requestedSchema);
      return { action: 'accept', content: answered };
    });
    const result = await agent.client.callTool({ name: 'legacy__book_time', arguments: {} });
    expect(answered).toBeDefined();
    expect(JSON.parse(textOf(result))).toEqual(answered);
    expect(app.history.answers[0]).toMatchObject({ decidedBy: 'human', answer: { action: 'accept' } });
  });
});
