// A server behind the gateway needs a sign-in (issue 10 §4): the app shows
// the sign-in dialog, the human consents there, the app opens the link
// through its own opener, the browser comes back to the gateway's loopback
// listener, and the agent gets only the tool's result. On Cancel the agent
// gets "declined". Never a link, a code or a token reaches the agent. Real
// parts: the gateway as a process, the app side (HostService + approval
// server) in this process, a bearer-protected MCP server and an
// authorization server on 127.0.0.1.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SignInQuestion } from '../../shared/auth/types';
import { cleanupsAfterEach } from '../support/cleanups';
import { followSignInLink, startSignInServers } from '../support/sign-in';
import { eventually, makeDataDir, startAgent, startApp, textOf } from './harness';

const cleanups = cleanupsAfterEach();

async function setup() {
  const { as, server } = await startSignInServers(
    cleanups,
    { scopesSupported: ['mcp:read'] },
    { challengeScope: 'mcp:read' },
  );
  const { dataDir } = makeDataDir({ notes: { url: server.url } });
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const app = await startApp(dataDir);
  cleanups.push(() => app.close());
  const signIns: SignInQuestion[] = [];
  app.service.on('signInAdded', (q) => void signIns.push(q));
  const agent = await startAgent(dataDir);
  cleanups.push(() => agent.close());
  return { as, server, app, agent, signIns };
}

/** The app's history of sign-in steps for "notes", oldest first. */
async function signInSteps(s: Awaited<ReturnType<typeof setup>>): Promise<string[]> {
  const { entries } = await s.app.service.invoke('queryHistory', {});
  return entries
    .flatMap((item) =>
      item.kind === 'other' && item.entry.kind === 'sign-in' && item.entry.server === 'notes' ? [item.entry.phase] : [],
    )
    .reverse();
}

/** Wait until `steps` of the app's history satisfy `done`. */
async function stepsUntil(s: Awaited<ReturnType<typeof setup>>, done: (steps: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const steps = await signInSteps(s);
    if (done(steps) || Date.now() > deadline) return steps;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a sign-in behind the gateway', () => {
  it('is asked in the app, opened by the app, and the agent gets only the result', async () => {
    const s = await setup();
    // The agent lists its tools: the gateway connects to the server, which wants a sign-in.
    const listed = s.agent.client.listTools();
    await eventually(() => s.signIns.length === 1, 20_000, 'the sign-in dialog in the app');
    const q = s.signIns[0]!;
    expect(q).toMatchObject({ mode: 'sign-in', server: 'notes', reportedBy: 'gateway', scopes: ['mcp:read'] });
    expect(q.url.host).toBe('127.0.0.1');
    expect(s.app.opened).toEqual([]);
    // The human consents in the app: the app opens exactly that link (after the gateway's listener is ready).
    await expect(s.app.service.invoke('openQuestionUrl', { questionId: q.id })).resolves.toEqual({ opened: true });
    expect(s.app.opened).toEqual([q.url.href]);
    expect(await s.app.service.invoke('listSignIns', {})).toMatchObject([{ id: q.id, waiting: true }]);
    await followSignInLink(q.url.href);
    expect((await listed).tools.map((t) => t.name)).toContain('notes__whoami');
    const result = await s.agent.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(textOf(result)).toBe('signed-in call reached the server');
    await eventually(() => s.app.service.pendingQuestionCount() === 0, 5_000, 'the dialog to close');
    // Nothing of the sign-in reached the agent.
    const seen = JSON.stringify(s.agent.received);
    const link = new URL(q.url.href);
    for (const secret of [
      link.searchParams.get('state')!,
      link.searchParams.get('code_challenge')!,
      ...s.as.tokens.keys(),
    ])
      expect(seen).not.toContain(secret);
    expect(seen).not.toContain(new URL(s.as.issuer).host);
    expect(s.agent.violations).toEqual([]);
    // The app's history keeps the sign-in as the app saw it and as the gateway says it ended.
    expect(await stepsUntil(s, (steps) => steps.includes('completed'))).toEqual(['asked', 'opened', 'completed']);
    // The redirect reached the gateway and the sign-in ended: the app removed the launcher page.
    await eventually(() => s.app.closed.length === 1, 5_000, 'the launcher page to be closed');
    expect(s.app.closed).toEqual([q.url.href]);
    const history = JSON.stringify(await s.app.service.invoke('queryHistory', {}));
    expect(history).toContain('"reportedBy":"gateway"');
    for (const secret of [link.searchParams.get('state')!, ...s.as.tokens.keys()])
      expect(history).not.toContain(secret);
  });

  it('a call that runs into a sign-in names the call and the agent in the app; Cancel gives the agent "declined"', async () => {
    const s = await setup();
    const listed = s.agent.client.listTools();
    await eventually(() => s.signIns.length === 1, 20_000, 'the sign-in dialog in the app');
    await s.app.service.invoke('openQuestionUrl', { questionId: s.signIns[0]!.id });
    await followSignInLink(s.signIns[0]!.url.href);
    await listed;
    // Signed out in the app (the store is shared): the gateway's next request meets a 401.
    await s.app.service.invoke('signOut', { server: 'notes' });
    const call = s.agent.client.callTool({ name: 'notes__whoami', arguments: {} });
    await eventually(() => s.signIns.length === 2, 20_000, 'a second sign-in dialog');
    const q = s.signIns[1]!;
    expect(q.call).toMatchObject({
      method: 'tools/call',
      name: 'whoami',
      agent: expect.stringContaining('test-agent'),
    });
    await s.app.service.invoke('answerQuestion', { questionId: q.id, answer: { action: 'cancel' } });
    const result = await call;
    expect(textOf(result)).toBe('Countersign: the user declined to sign in to server "notes"; nothing was sent');
    expect(s.app.opened).toHaveLength(1);
    expect(JSON.stringify(s.agent.received)).not.toContain(new URL(s.as.issuer).host);
  });

  it('Cancel in the app: nothing is opened, the agent learns no link, and "sign-in needed" for the server', async () => {
    const s = await setup();
    const listed = s.agent.client.listTools();
    await eventually(() => s.signIns.length === 1, 20_000, 'the sign-in dialog in the app');
    await s.app.service.invoke('answerQuestion', { questionId: s.signIns[0]!.id, answer: { action: 'cancel' } });
    const tools = (await listed).tools;
    expect(tools.map((t) => t.name)).toEqual(['notes__countersign_sign_in_needed']);
    const sentence =
      'server "notes" needs the user to sign in before its tools can be used; ask the user to sign in ' +
      '(in Countersign\'s Servers view, or: countersign auth login --server "notes"), then list the tools again';
    expect(tools[0]!.description).toContain(sentence);
    // Calling the stand-in says the same and reaches nothing: no server call, no second sign-in dialog.
    const result = await s.agent.client.callTool({ name: 'notes__countersign_sign_in_needed', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Countersign: ${sentence}`);
    expect(s.signIns).toHaveLength(1);
    expect(s.app.opened).toEqual([]);
    expect(s.as.requests.authorize).toBe(0);
    expect(JSON.stringify(s.agent.received)).not.toContain(new URL(s.as.issuer).host);
    expect(await stepsUntil(s, (steps) => steps.length >= 2)).toEqual(['asked', 'cancelled']);
  });
});
