// Signing in from the app (issue 10 §2, §4): the real HostService behind the
// real IPC handler and open-external gate, a real bearer-protected MCP server
// and a real authorization server on 127.0.0.1. The sign-in waits in the same
// queue as questions; "Open in browser" (openQuestionUrl) is the consent, and
// the link reaches the "system browser" only through the gate; the dialog
// then waits, with Cancel; the Servers view shows the state (never a token);
// the history records each step (never a token or code).
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SignInQuestion } from '../../shared/auth/types';
import type { CallView, HostEvents, ServerView } from '../../shared/host-api/contract';
import { HostService } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';
import { createInvokeHandler, type InvokeEventLike, type InvokeReply } from '../../electron/main/ipc';
import { OpenExternalGate } from '../../electron/main/open-external-gate';
import { cleanupsAfterEach } from '../support/cleanups';
import { followSignInLink, startSignInServers } from '../support/sign-in';

const cleanups = cleanupsAfterEach();

const MAIN_ID = 1;
const fromWindow: InvokeEventLike = {
  sender: { id: MAIN_ID },
  senderFrame: { url: 'app://countersign/index.html', parent: null },
};

function next<E extends keyof HostEvents>(
  service: HostService,
  event: E,
  pick: (p: HostEvents[E]) => boolean = () => true,
): Promise<HostEvents[E]> {
  return new Promise((resolve) => {
    const off = service.on(event, (p) => {
      if (!pick(p)) return;
      off();
      resolve(p);
    });
  });
}

async function setup(opts: { browse?: boolean } = {}) {
  const { as, server } = await startSignInServers(
    cleanups,
    { scopesSupported: ['mcp:read'] },
    { challengeScope: 'mcp:read' },
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-app-signin-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const opened: string[] = [];
  const logs: string[] = [];
  const gate = new OpenExternalGate(
    async (url) => {
      opened.push(url);
      if (opts.browse !== false) void followSignInLink(url).catch(() => undefined);
    },
    (l) => logs.push(l),
  );
  const history = await JournalHistory.open(join(dataDir, 'history'));
  const service = await HostService.create({
    dataDir,
    history,
    openExternal: gate.openExternal,
    firstStartServers: { notes: { url: server.url } },
    connectOnStart: false,
    signInTimeoutMs: 20_000,
  });
  service.log = (l) => logs.push(l);
  cleanups.push(() => service.close());
  const handler = createInvokeHandler({ service, gate, mainWebContentsId: () => MAIN_ID, log: (l) => logs.push(l) });
  const invoke = async (method: string, params: unknown): Promise<unknown> => {
    const reply: InvokeReply = await handler(fromWindow, method, params);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.value;
  };
  return { as, server, dataDir, opened, logs, service, invoke };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function callWhoami(s: Setup): Promise<{ callId: string; ended: Promise<CallView> }> {
  const ended = next(s.service, 'callUpdated', (v) => v.tool === 'whoami' && v.state !== 'running');
  const { callId } = (await s.invoke('callTool', { server: 'notes', tool: 'whoami', args: {} })) as { callId: string };
  return { callId, ended };
}

async function journalText(s: Setup): Promise<string> {
  const dir = join(s.dataDir, 'history');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
  return (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('');
}

describe('signing in from the app', () => {
  it('puts the sign-in in the queue, opens the link only on consent through the gate, and the call gets its result', async () => {
    const s = await setup();
    const asked = next(s.service, 'signInAdded');
    const { ended } = await callWhoami(s);
    const q: SignInQuestion = await asked;
    expect(q).toMatchObject({ mode: 'sign-in', server: 'notes', issuer: s.as.issuer, scopes: ['mcp:read'] });
    expect(q.call).toMatchObject({ method: 'tools/call', name: 'whoami' });
    expect(q.url.host).toBe('127.0.0.1');
    // Waiting for the human: nothing opened, the authorization endpoint never asked.
    expect(s.opened).toEqual([]);
    expect(s.as.requests.authorize).toBe(0);
    expect(await s.invoke('listSignIns', {})).toEqual([q]);
    // Answering "accept" is not how a sign-in is consented to.
    await expect(s.invoke('answerQuestion', { questionId: q.id, answer: { action: 'accept' } })).rejects.toThrow(
      /Open in browser/,
    );

    await expect(s.invoke('openQuestionUrl', { questionId: q.id })).resolves.toEqual({ opened: true });
    // The gate opened exactly the link the human saw (its consent is used up).
    expect(s.opened).toEqual([q.url.href]);
    const result = await ended;
    expect(result.state).toBe('complete');
    expect(JSON.stringify(result.result)).toContain('signed-in call reached the server');
    expect(await s.invoke('listSignIns', {})).toEqual([]);

    // The Servers view: signed in, issuer, scopes, expiry; no token anywhere in what the renderer gets.
    const views = (await s.invoke('listServers', {})) as ServerView[];
    const view = views.find((v) => v.name === 'notes')!;
    expect(view.signIn).toMatchObject({ signedIn: true, needed: false, issuer: s.as.issuer, scopes: ['mcp:read'] });
    expect(view.signIn?.expiresAt).toMatch(/^\d{4}-/);
    const [token] = [...s.as.tokens.keys()];
    expect(token).toBeTruthy();
    expect(JSON.stringify(views)).not.toContain(token);

    // The history: asked, opened, completed — with server, issuer and scopes, never a token or code.
    const text = await journalText(s);
    const steps = text
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { kind: string; phase?: string; server?: string; issuer?: string; scopes?: string[] },
      )
      .filter((e) => e.kind === 'sign-in');
    expect(steps.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed']);
    expect(steps[2]).toMatchObject({ server: 'notes', issuer: s.as.issuer, scopes: ['mcp:read'] });
    expect(text).not.toContain(token!);
    expect(text).not.toMatch(/[?&]code=/);
  });

  it('a request without the state at the redirect listener is one fault in the history; the sign-in goes on', async () => {
    const s = await setup({ browse: false });
    const asked = next(s.service, 'signInAdded');
    const { ended } = await callWhoami(s);
    const q = await asked;
    await expect(s.invoke('openQuestionUrl', { questionId: q.id })).resolves.toEqual({ opened: true });
    const link = s.opened[0]!;
    const callback = new URL(new URL(link).searchParams.get('redirect_uri')!);
    const forged = await fetch(`${callback.href}?code=attackers-code&state=guessed`);
    expect(forged.status).toBe(400);
    await forged.text();
    await followSignInLink(link);
    expect((await ended).state).toBe('complete');
    const faults = (await journalText(s))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; fault?: string; detail?: string })
      .filter((e) => e.kind === 'fault');
    expect(faults).toEqual([
      expect.objectContaining({
        fault: 'protocol-error',
        detail: expect.stringMatching(/^sign-in to "notes": ignored a sign-in response without the state/),
      }),
    ]);
    expect(JSON.stringify(faults)).not.toContain('attackers-code');
    expect(s.logs.some((l) => /ignored a sign-in response without the state/.test(l))).toBe(true);
  });

  it('refuses to open a sign-in link through the gate without the consent request', async () => {
    const s = await setup();
    const asked = next(s.service, 'signInAdded');
    const { ended } = await callWhoami(s);
    const q = await asked;
    // Some other path asks the gate to open the link: refused, nothing reaches the OS.
    await expect(s.service.questions.openSignInLink(q.url.href)).rejects.toThrow(/did not consent/);
    expect(s.opened).toEqual([]);
    await s.invoke('answerQuestion', { questionId: q.id, answer: { action: 'cancel' } });
    const result = await ended;
    expect(result).toMatchObject({ state: 'error', error: expect.stringMatching(/cancelled/) });
    expect(s.as.requests.authorize).toBe(0);
    const text = await journalText(s);
    expect(text).toContain('"phase":"cancelled"');
  });

  it('Cancel while waiting for the browser ends the sign-in and the call with a clear message', async () => {
    const s = await setup({ browse: false });
    const asked = next(s.service, 'signInAdded');
    const { ended } = await callWhoami(s);
    const q = await asked;
    await expect(s.invoke('openQuestionUrl', { questionId: q.id })).resolves.toEqual({ opened: true });
    expect(s.opened).toEqual([q.url.href]);
    const [waiting] = (await s.invoke('listSignIns', {})) as SignInQuestion[];
    expect(waiting).toMatchObject({ id: q.id, waiting: true });
    // A second "open" of the same sign-in opens nothing more.
    await expect(s.invoke('openQuestionUrl', { questionId: q.id })).resolves.toMatchObject({ opened: false });
    expect(s.opened).toHaveLength(1);
    const removed = next(s.service, 'questionRemoved', (e) => e.questionId === q.id);
    await s.invoke('answerQuestion', { questionId: q.id, answer: { action: 'cancel' } });
    await removed;
    const result = await ended;
    expect(result).toMatchObject({ state: 'error', error: expect.stringMatching(/sign-in was cancelled/) });
    expect(await s.invoke('listSignIns', {})).toEqual([]);
    expect(s.as.tokens.size).toBe(0);
  });

  it('a server that needs a sign-in shows that state at start, not an error; Sign in and Sign out from the view', async () => {
    const s = await setup();
    // The background connect never asks: the view says a sign-in is needed.
    const needed = next(s.service, 'serversChanged', (v) =>
      v.some((x) => x.name === 'notes' && x.signIn?.needed === true),
    );
    await s.service.invoke('reconnectServer', { name: 'notes' });
    const [view] = (await needed).filter((v) => v.name === 'notes');
    expect(view).toMatchObject({ status: 'idle', signIn: { needed: true, signedIn: false } });
    expect(view!.error).toBeUndefined();
    expect(await s.invoke('listSignIns', {})).toEqual([]);

    // Sign in (with more scopes asked for): the dialog comes, consent, signed in, connected.
    const asked = next(s.service, 'signInAdded');
    const connected = next(s.service, 'serversChanged', (v) =>
      v.some((x) => x.name === 'notes' && x.status === 'connected' && x.signIn?.signedIn === true),
    );
    await s.invoke('signIn', { server: 'notes', scopes: ['mcp:read'] });
    const q = await asked;
    expect(q.call).toBeNull();
    await s.invoke('openQuestionUrl', { questionId: q.id });
    const after = (await connected).find((x) => x.name === 'notes')!;
    expect(after.signIn).toMatchObject({ signedIn: true, needed: false, issuer: s.as.issuer });

    // Sign out: revoked at the server (it offers revocation), deleted here, the view shows it needs a sign-in again.
    const out = (await s.invoke('signOut', { server: 'notes' })) as { revoked: boolean; servers: ServerView[] };
    expect(out.revoked).toBe(true);
    expect(s.as.tokens.size).toBe(0);
    const views = (await s.invoke('listServers', {})) as ServerView[];
    expect(views.find((v) => v.name === 'notes')!.signIn).toMatchObject({ signedIn: false, needed: true });
    expect(await journalText(s)).toContain('"phase":"signed-out"');
  });
});
