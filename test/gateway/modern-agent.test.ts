// A 2026-07-28 agent -> the gateway (a real process, over stdio) -> the real
// modern (SDK 2.x) and legacy (SDK 1.x) fixture servers, with the app side
// answering through the host API. Every call also proves that the agent
// received nothing of the question or the answer, except what the server
// itself wrote into its final result.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWireLog } from '../fixtures/spawn-fixture';
import {
  cancelFromAgent,
  declaredUpstream,
  eventually,
  leaks,
  startGatewaySetup,
  textOf,
  type App,
  type GatewaySetup,
  type Reply,
} from './harness';

let app: App;
let agent: GatewaySetup['agent'];
let wireLogs: Record<string, string>;
let dataDir: string;
let setup: GatewaySetup;

beforeAll(async () => {
  setup = await startGatewaySetup({ era: 'modern', name: 'test-agent' });
  ({ app, agent, dataDir, wireLogs } = setup);
});

afterAll(async () => {
  await setup?.close();
});

const serverStrings = () => setup.serverStrings();
/** Call a tool with scripted human replies; fails if what the agent received meanwhile leaks `forbidden`. */
const call = (name: string, args: Record<string, unknown>, replies: Reply[], forbidden: string[] = []) =>
  setup.call(name, args, replies, forbidden);

describe('a modern agent through the gateway', () => {
  it('sees one catalogue named <server>__<tool>, and the servers see only what a human can answer declared', async () => {
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('modern__confirm_delete');
    expect(names).toContain('legacy__confirm_delete');
    expect(names).toContain('legacy__needs_auth');
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // The agent declared sampling and roots; only the human's elicitation goes upstream.
    for (const kind of ['modern', 'legacy']) {
      const declared = declaredUpstream(wireLogs[kind]!);
      expect(declared.length).toBeGreaterThan(0);
      for (const caps of declared) {
        // The host's own capabilities (elicitation, tasks): never the agent's sampling or roots.
        expect(caps).toMatchObject({ elicitation: { form: {}, url: {} } });
        for (const key of Object.keys(caps as object)) expect(['elicitation', 'extensions', 'tasks']).toContain(key);
      }
    }
  });

  it('accept, decline and cancel come back as the server worded them, distinct, and never as the question', async () => {
    const forbidden = ['Delete time entry 41?'];
    expect(textOf(await call('modern__confirm_delete', { entryId: 41 }, [{ action: 'accept' }], forbidden))).toBe(
      'deleted entry 41',
    );
    const declined = await call('modern__confirm_delete', { entryId: 41 }, [{ action: 'decline' }], forbidden);
    expect(textOf(declined)).toBe('declined by the user, nothing was deleted');
    expect(declined.isError).toBeFalsy();
    expect(textOf(await call('modern__confirm_delete', { entryId: 41 }, [{ action: 'cancel' }], forbidden))).toBe(
      'cancelled, nothing was deleted',
    );
    const q = app.shown.at(-1)!;
    expect(q.origin).toMatchObject({
      server: 'modern',
      method: 'tools/call',
      name: 'confirm_delete',
      argumentsSummary: 'entryId=41',
    });
    expect((q.origin as { agent?: string }).agent).toMatch(/^test-agent 1\.0\.0 \(stdio-[0-9a-f]{6}\)$/);
  });

  it('records the answer in the app before the server learns it (write-ahead across processes)', async () => {
    await call('modern__confirm_delete', { entryId: 42 }, [{ action: 'decline' }], ['Delete time entry 42?']);
    const history = await app.service.queryHistory({ text: 'Delete time entry 42?' });
    const item = history.entries[0]!;
    const answeredAt = Date.parse(item.kind === 'question' && item.answer ? item.answer.ts : '');
    const retry = readWireLog(wireLogs.modern!).filter(
      (e) =>
        e.dir === 'in' &&
        e.msg?.method === 'tools/call' &&
        e.msg.params?.arguments?.entryId === 42 &&
        e.msg.params.inputResponses,
    );
    expect(retry).toHaveLength(1);
    expect(answeredAt).toBeLessThanOrEqual(retry[0]!.t);
  });

  it('a form with every field kind: the answer reaches the server, the form never reaches the agent', async () => {
    const r = await call(
      'modern__book_time',
      {},
      [
        {
          action: 'accept',
          content: { description: 'Pairing with the gateway', day: '2026-08-01', hours: 2, category: 'meeting' },
        },
      ],
      ['Book time on Countersign', 'What did you work on?', 'Contact email', 'Reviewers', 'Pairing with the gateway'],
    );
    expect(JSON.parse(textOf(r))).toMatchObject({
      description: 'Pairing with the gateway',
      hours: 2,
      category: 'meeting',
    });
  });

  it('two rounds: both questions go to the human, the agent gets only the final sentence', async () => {
    const r = await call(
      'modern__two_rounds',
      {},
      [{ action: 'accept', content: { name: 'Ada' } }, { action: 'accept' }],
      ['What name should the booking use?', 'Book the time for Ada?'],
    );
    expect(textOf(r)).toBe('booked for Ada after 2 rounds');
    // "Ada" is in the server's final result; nowhere else may it appear (the leak check strips only server strings).
  });

  it('a URL question: the app opens the link, the agent never sees it', async () => {
    const r = await call(
      'modern__connect_account',
      {},
      [
        async (q, a) => {
          await a.service.invoke('openQuestionUrl', { questionId: q.id });
          return { action: 'accept' };
        },
      ],
      ['https://example.com/oauth', 'Connect your Example account'],
    );
    expect(textOf(r)).toBe('account connected');
    expect(app.opened.at(-1)).toMatch(/^https:\/\/example\.com\/oauth\?state=/);
  });

  it('legacy server: elicitation/create goes to the human, never to the agent (form, URL, and -32042)', async () => {
    expect(
      textOf(await call('legacy__confirm_delete', { entryId: 7 }, [{ action: 'decline' }], ['Delete time entry 7?'])),
    ).toBe('declined by the user, nothing was deleted');
    expect(
      textOf(await call('legacy__confirm_delete', { entryId: 7 }, [{ action: 'accept' }], ['Delete time entry 7?'])),
    ).toBe('deleted entry 7');
    const openAndAccept: Reply = async (q, a) => {
      await a.service.invoke('openQuestionUrl', { questionId: q.id });
      return { action: 'accept' };
    };
    expect(textOf(await call('legacy__connect_account', {}, [openAndAccept], ['https://example.com/oauth']))).toBe(
      'account connected',
    );
    expect(
      textOf(
        await call(
          'legacy__needs_auth',
          {},
          [openAndAccept],
          ['https://example.com/authorize', 'Authorize Countersign to read your calendar'],
        ),
      ),
    ).toBe('authorized: calendar access granted');
  });

  it('prompts and resources: named and routed like tools, their questions answered by the human', async () => {
    const { prompts } = await agent.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('modern__greeting');
    const from = agent.received.length;
    app.reply({ action: 'accept' });
    const prompt = await agent.client.getPrompt({ name: 'modern__greeting', arguments: { name: 'Ada' } });
    expect(JSON.stringify(prompt.messages)).toContain('Hello, Ada! Welcome to Countersign.');
    const { resources } = await agent.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('fixture://secret-note');
    app.reply({ action: 'decline' });
    const note = await agent.client.readResource({ uri: 'fixture://secret-note' });
    expect(JSON.stringify(note.contents)).toContain('withheld: declined by the user');
    expect(leaks(agent.received.slice(from), ['Greet Ada?', 'Reveal the secret note?'], serverStrings())).toEqual([]);
  });

  it('mute ("stop asking this session") applies to gateway calls: nothing is shown, the server hears cancel', async () => {
    await app.service.invoke('muteServer', { server: 'modern', muted: true });
    try {
      const shown = app.shown.length;
      const r = await call('modern__confirm_delete', { entryId: 50 }, [], ['Delete time entry 50?']);
      expect(textOf(r)).toBe('cancelled, nothing was deleted');
      expect(app.shown.length).toBe(shown);
      expect(app.history.answers.at(-1)).toMatchObject({ answer: { action: 'cancel' }, decidedBy: 'mute-rule' });
    } finally {
      await app.service.invoke('muteServer', { server: 'modern', muted: false });
    }
  });

  it('keeps a long wait alive with content-free progress notifications', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const from = agent.received.length;
    app.reply(async () => {
      await new Promise((r) => setTimeout(r, 700));
      return { action: 'accept' };
    });
    const r = await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 60 } }, {
      onprogress: (p: never) => void progress.push(p),
      resetTimeoutOnProgress: true,
    } as never);
    expect(textOf(r)).toBe('deleted entry 60');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    // Fixed sentences only: while the dialog is open, and once answered (sent at once on the change).
    expect(progress.map((p) => p.message)).toContain('waiting for the user to answer in Countersign');
    for (const p of progress)
      expect(['waiting for the user to answer in Countersign', 'waiting for the server']).toContain(p.message);
    expect(leaks(agent.received.slice(from), ['Delete time entry 60?'], serverStrings())).toEqual([]);
  });

  it('an agent-side cancellation closes the pending dialog and is recorded as cancelled', async () => {
    const q = await cancelFromAgent(app, agent, 'modern__confirm_delete', { entryId: 70 });
    await eventually(
      () => app.history.answers.some((a) => a.question.id === q.id && a.decidedBy === 'call-cancelled'),
      5_000,
      'the cancelled answer',
    );
    // The question is no longer answerable in the app.
    await expect(app.answer(q.id, { action: 'accept' })).rejects.toThrow(/not waiting/);
  });

  it('a question the host cannot show safely ends the call with one sentence that quotes nothing of it', async () => {
    const shown = app.shown.length;
    const r = await call('modern__bad_schema', {}, [], ['Enter your postal address', 'street', 'postal']);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Countersign: server "modern" asked a question Countersign cannot show safely; nothing was answered and the call was stopped',
    );
    expect(r._meta).toMatchObject({
      'io.countersign/host-generated': true,
      'io.countersign/host-error': 'invalid-schema',
    });
    expect(app.shown.length).toBe(shown);
    // The app's gate is the one checker: it refused the form before showing it and recorded why.
    await eventually(
      () => app.history.faults.some((f) => f.call?.name === 'bad_schema'),
      5_000,
      'the refusal in the app history',
    );
    expect(app.history.faults.filter((f) => f.call?.name === 'bad_schema')).toEqual([
      expect.objectContaining({ code: 'invalid-schema' }),
    ]);
  });

  it('a request for something the human cannot give (sampling) is refused, not passed to the agent', async () => {
    const r = await call('modern__ask_sampling', {}, [], ["Summarise this week's time entries."]);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('asked for input Countersign does not provide');
    expect(agent.violations).toEqual([]);
  });

  it('plain calls pass through untouched and stay out of the history', async () => {
    const asked = app.history.asked.length;
    const ended = app.history.ended.length;
    expect(textOf(await call('modern__add_numbers', { a: 2, b: 3 }, []))).toBe('The sum of 2 and 3 is 5.');
    expect(textOf(await call('legacy__echo', { text: 'hi there' }, []))).toBe('hi there');
    await new Promise((r) => setTimeout(r, 200));
    expect(app.history.asked.length).toBe(asked);
    expect(app.history.ended.length).toBe(ended);
  });

  it('the history marks which agent connection caused each question, and how its call ended', async () => {
    const agents = new Set(app.history.asked.map((e) => e.call?.agent));
    expect(agents.size).toBe(1);
    const [label] = agents;
    expect(label).toMatch(/^test-agent 1\.0\.0 \(stdio-[0-9a-f]{6}\)$/);
    for (const a of app.history.answers) expect(a.call?.agent).toBe(label);
    await eventually(
      () => app.history.ended.some((e) => e.call.name === 'two_rounds'),
      5_000,
      'call-end of two_rounds',
    );
    const end = app.history.ended.find((e) => e.call.name === 'two_rounds')!;
    expect(end).toMatchObject({ outcome: 'complete', rounds: 2, call: { agent: label, server: 'modern' } });
    // The journal (the app's one writer) holds the questions and answers.
    const journal = readFileSync(join(dataDir, 'history', 'journal-000001.jsonl'), 'utf8');
    expect(journal).toContain('What name should the booking use?');
    // The journal itself names the agent on the question and on the call end.
    const entries = journal
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      entries.find((e) => e.kind === 'question' && e.message === 'What name should the booking use?')?.call.agent,
    ).toBe(label);
    expect(entries.find((e) => e.kind === 'call-end' && e.name === 'two_rounds')?.agent).toBe(label);
  });

  it('over the whole session: no request to the agent, no wire words, no agent-side handler ever called', () => {
    expect(agent.violations).toEqual([]);
    expect(leaks(agent.received, [], serverStrings())).toEqual([]);
  });
});
