// The approval channel, both ends for real over a real socket, with a fake
// app behind the server: who records what, in which order, and what happens
// to peers that misbehave.
import { mkdtempSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import type { AnswerEvent, FaultEvent, HostObserver } from '../events';
import type { SignInEvent } from '../auth/server-auth';
import { LIMITS } from '../limits';
import { readJournal, verifyJournal } from '../history';
import { JournalHistory } from '../service/journal-history';
import { HostError } from '../host-error';
import type { PrompterAnswer } from '../prompter/prompter';
import {
  ApprovalClient,
  ApprovalNotVisibleError,
  ApprovalUnavailableError,
  ApprovalWithdrawnError,
  type AskFrame,
} from './approval-client';
import {
  ApprovalServerInUseError,
  startApprovalServer,
  type ApprovalAlert,
  type ApprovalHost,
} from './approval-server';
import { approvalEndpoint } from './endpoint';
import { RemoteQuestions } from './remote-questions';
import { APPROVAL_PROTOCOL, MAX_FRAME_BYTES } from './protocol';
import { handshakeProof, newNonce } from './handshake';

interface Asked {
  question: Question;
  signal: AbortSignal;
  resolve(a: PrompterAnswer): void;
}

/** A stand-in for HostService: its queue, its history observer, its mute rules. */
function fakeApp(overrides: Partial<HostObserver> = {}) {
  const asked: Asked[] = [];
  const waiting: Array<(a: Asked) => void> = [];
  const events: Array<[string, unknown]> = [];
  const muted = new Set<string>();
  const alerts: ApprovalAlert[] = [];
  const host: ApprovalHost = {
    questions: {
      ask: (question, signal) =>
        new Promise<PrompterAnswer>((resolve, reject) => {
          const entry = { question, signal, resolve };
          asked.push(entry);
          waiting.shift()?.(entry);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    },
    observer: {
      questionAsked: (e) => void events.push(['questionAsked', e]),
      answerRecorded: async (e) => {
        // A slow disk: the reply must still wait for it.
        await new Promise((r) => setTimeout(r, 30));
        events.push(['answerRecorded', e]);
      },
      callEnded: (e) => void events.push(['callEnded', e]),
      fault: (e) => void events.push(['fault', e]),
      ...overrides,
    },
    isMuted: (s) => muted.has(s),
    alert: (a) => void alerts.push(a),
  };
  const next = () => new Promise<Asked>((resolve) => waiting.push(resolve));
  return { host, asked, events, muted, next, alerts };
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(
  overrides: Partial<HostObserver> = {},
  extra: { helloTimeoutMs?: number; maxPendingPerPeer?: number; maxPeers?: number; socketPollMs?: number } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
  const app = fakeApp(overrides);
  const logs: string[] = [];
  const server = await startApprovalServer({
    service: app.host,
    dataDir,
    app: 'test',
    log: (l) => void logs.push(l),
    ...extra,
  });
  cleanup.push(() => server.close());
  return { dataDir, app, logs, server };
}

const call = {
  callId: 'call-1',
  server: 'kimai',
  era: 'modern' as const,
  protocolVersion: '2026-07-28',
  method: 'tools/call' as const,
  name: 'delete_entry',
  agent: 'claude-code#stdio-a1b2c3',
};
/** An ask's question as the server sent it, and its context as the gateway reports it. */
const formAsk = (
  over: { question?: AskFrame['question']; context?: Partial<AskFrame['context']> } = {},
): Pick<AskFrame, 'question' | 'context'> => ({
  question: over.question ?? {
    mode: 'form',
    message: 'Delete entry 4?',
    requestedSchema: { type: 'object', properties: {} },
  },
  context: {
    server: 'kimai',
    era: 'modern',
    method: 'tools/call',
    name: 'delete_entry',
    round: 1,
    key: 'confirm',
    argumentsSummary: 'id=4',
    ...over.context,
  },
});

/** A raw peer speaking the wire protocol by hand. */
async function rawPeer(dataDir: string) {
  const endpoint = approvalEndpoint(dataDir);
  const socket: Socket = connect(endpoint.socketPath);
  await new Promise((r) => socket.once('connect', r));
  const frames: any[] = [];
  let buffer = '';
  socket.on('data', (d) => {
    buffer += d.toString('utf8');
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      frames.push(JSON.parse(buffer.slice(0, i)));
      buffer = buffer.slice(i + 1);
    }
  });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  // A peer the app drops while it is still writing gets a reset: that is the drop, not a test failure.
  socket.on('error', () => undefined);
  cleanup.push(() => void socket.destroy());
  const token = readFileSync(endpoint.tokenFile, 'utf8').trim();
  return {
    socket,
    frames,
    closed,
    token,
    send: (frame: unknown) => socket.write(`${JSON.stringify(frame)}\n`),
    /** The whole handshake, as a gateway runs it; resolves once welcomed (or refused). */
    hello: async () => {
      const nonce = newNonce();
      socket.write(`${JSON.stringify({ type: 'hello', protocol: APPROVAL_PROTOCOL, nonce })}\n`);
      const challenge = await frame('challenge');
      socket.write(
        `${JSON.stringify({ type: 'prove', proof: handshakeProof(token, 'gateway', nonce, challenge.nonce) })}\n`,
      );
      await frame('welcome');
    },
    frame,
  };
  async function frame(type: string, id?: string): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const f = frames.find((x) => x.type === type && (id === undefined || x.id === id));
      if (f) return f;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type} frame; got ${JSON.stringify(frames)}`);
  }
}

function client(dataDir: string, launcher: ConstructorParameters<typeof ApprovalClient>[0]['launcher'] = null) {
  const c = new ApprovalClient({ dataDir, launcher, log: () => undefined, startTimeoutMs: 3_000 });
  cleanup.push(() => c.close());
  return c;
}

describe('the app side', () => {
  it.skipIf(process.platform === 'win32')('listens on a 0600 socket in a 0700 folder, with a 0600 token', async () => {
    const { dataDir } = await setup();
    const e = approvalEndpoint(dataDir);
    expect(statSync(e.runDir).mode & 0o777).toBe(0o700);
    expect(statSync(e.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(e.tokenFile).mode & 0o777).toBe(0o600);
  });

  it('refuses to start twice on one data folder, and replaces a stale socket file', async () => {
    const { dataDir, app } = await setup();
    await expect(startApprovalServer({ service: app.host, dataDir, log: () => undefined })).rejects.toThrow(
      ApprovalServerInUseError,
    );
    const other = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    const e = approvalEndpoint(other);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(e.runDir, { recursive: true, mode: 0o700 });
    writeFileSync(e.socketPath, 'left over');
    const server = await startApprovalServer({ service: app.host, dataDir: other, log: () => undefined });
    cleanup.push(() => server.close());
    expect(server.peerCount).toBe(0);
  });

  it.each([
    [
      'a proof made without the key',
      async (p: Awaited<ReturnType<typeof rawPeer>>) => {
        const nonce = newNonce();
        p.send({ type: 'hello', protocol: APPROVAL_PROTOCOL, nonce });
        const challenge = await p.frame('challenge');
        p.send({ type: 'prove', proof: handshakeProof('guess', 'gateway', nonce, challenge.nonce) });
      },
      'wrong proof of the key',
    ],
    [
      "the app's own proof sent back (reflection)",
      async (p: Awaited<ReturnType<typeof rawPeer>>) => {
        p.send({ type: 'hello', protocol: APPROVAL_PROTOCOL, nonce: newNonce() });
        p.send({ type: 'prove', proof: (await p.frame('challenge')).proof });
      },
      'wrong proof of the key',
    ],
    [
      'a hello without a real nonce',
      (p: Awaited<ReturnType<typeof rawPeer>>) => p.send({ type: 'hello', protocol: APPROVAL_PROTOCOL, nonce: 'x' }),
      'no valid nonce',
    ],
    [
      'the old hello that carried the key itself',
      (p: Awaited<ReturnType<typeof rawPeer>>) =>
        p.send({ type: 'hello', protocol: APPROVAL_PROTOCOL, token: p.token }),
      'malformed frame',
    ],
    [
      'a frame before hello',
      (p: Awaited<ReturnType<typeof rawPeer>>) => p.send({ type: 'cancel', id: 'x' }),
      'expected hello, got cancel',
    ],
    [
      'a line that is not JSON',
      (p: Awaited<ReturnType<typeof rawPeer>>) => p.socket.write('hello\n'),
      'a frame is not JSON',
    ],
    [
      'an unknown frame',
      (p: Awaited<ReturnType<typeof rawPeer>>) => p.send({ type: 'answer', id: 'x', answer: { action: 'accept' } }),
      'malformed frame',
    ],
    [
      'an endless line',
      (p: Awaited<ReturnType<typeof rawPeer>>) => p.socket.write(Buffer.alloc(MAX_FRAME_BYTES + 10, 0x20)),
      'longer than',
    ],
  ])('drops a peer that sends %s, and logs why', async (_what, misbehave, reason) => {
    const { dataDir, logs } = await setup();
    const peer = await rawPeer(dataDir);
    await misbehave(peer);
    await peer.closed;
    expect(peer.frames.some((f) => f.type === 'welcome')).toBe(false);
    expect(logs.join('\n')).toContain(reason);
  });

  it('drops a peer that never says hello, and says bye to a wrong protocol version', async () => {
    const { dataDir, logs } = await setup({}, { helloTimeoutMs: 100 });
    const silent = await rawPeer(dataDir);
    await silent.closed;
    expect(logs.join('\n')).toContain('no hello in time');
    const old = await rawPeer(dataDir);
    old.send({ type: 'hello', protocol: 'countersign-approval/0', nonce: newNonce() });
    expect(await old.frame('bye')).toMatchObject({ reason: expect.stringContaining(APPROVAL_PROTOCOL) });
    await old.closed;
  });

  it('shows the question with a fresh id and the agent label, records it, and records the answer BEFORE replying', async () => {
    const { dataDir, app } = await setup();
    const peer = await rawPeer(dataDir);
    await peer.hello();
    await peer.frame('welcome');
    const shown = app.next();
    peer.send({
      type: 'ask',
      id: 'a1',
      ...formAsk(),
      call,
      requestState: { length: 10, sha256: 'a'.repeat(64) },
    });
    const q = await shown;
    expect(q.question.id).not.toBe('gw-q-1');
    // Labels the app did not see itself are marked as the gateway's word.
    expect(q.question.origin).toMatchObject({
      server: 'kimai',
      agent: 'claude-code#stdio-a1b2c3',
      argumentsSummary: 'id=4',
      reportedBy: 'gateway',
    });
    expect(app.events[0]).toEqual([
      'questionAsked',
      expect.objectContaining({
        call: { ...call, reportedBy: 'gateway' },
        question: q.question,
        requestState: { length: 10, sha256: 'a'.repeat(64) },
      }),
    ]);
    q.resolve({ answer: { action: 'accept', content: {} }, decidedBy: 'human' });
    const answer = await peer.frame('answer');
    expect(answer).toEqual({ type: 'answer', id: 'a1', answer: { action: 'accept', content: {} }, decidedBy: 'human' });
    // Write-ahead: the (slow) answer record finished before the frame was sent.
    expect(app.events.map((e) => e[0])).toEqual(['questionAsked', 'answerRecorded']);
  });

  it("builds and checks the server's question itself: a nested form is refused (code invalid-schema), a link is analysed here", async () => {
    const { dataDir, app, logs } = await setup();
    const peer = await rawPeer(dataDir);
    await peer.hello();
    peer.send({
      type: 'ask',
      id: 'n1',
      ...formAsk({
        question: {
          mode: 'form',
          message: 'Where?',
          requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } },
        },
      }),
      call,
    });
    expect(await peer.frame('withdrawn')).toMatchObject({
      id: 'n1',
      reason: expect.stringMatching(/^server "kimai" sent a form the host cannot show safely/),
      code: 'invalid-schema',
    });
    expect(app.asked).toHaveLength(0);
    expect(logs.join('\n')).toContain(
      'a gateway question ended: server "kimai" sent a form the host cannot show safely',
    );
    // The app's own gate judged it, and its history says so.
    expect(app.events.find((e) => e[0] === 'fault')?.[1]).toMatchObject({ code: 'invalid-schema' });
    const shown = app.next();
    peer.send({
      type: 'ask',
      id: 'u1',
      ...formAsk({ question: { mode: 'url', message: 'Open this', url: 'javascript:alert(1)' } }),
      call,
    });
    const q = await shown;
    expect(q.question.mode === 'url' && q.question.url.blocked).toBe(true);
    peer.send({
      type: 'ask',
      id: 'm1',
      ...formAsk({ context: { server: 'other' } }),
      call,
    });
    expect(await peer.frame('withdrawn', 'm1')).toMatchObject({
      reason: expect.stringContaining('its call is on "kimai"'),
    });
  });

  it('holds a bounded number of gateway connections, and tells the next one why it is refused', async () => {
    const { dataDir, logs, server } = await setup({}, { maxPeers: 2 });
    const a = await rawPeer(dataDir);
    const b = await rawPeer(dataDir);
    void a.hello();
    void b.hello();
    await a.frame('welcome');
    await b.frame('welcome');
    const c = await rawPeer(dataDir);
    expect(await c.frame('bye')).toMatchObject({
      reason: expect.stringContaining('2 gateway connections (its limit)'),
    });
    await c.closed;
    expect(server.peerCount).toBe(2);
    expect(logs.join('\n')).toContain('refused a gateway connection: 2 are already connected');
  });

  it('applies mute rules without showing anything', async () => {
    const { dataDir, app } = await setup();
    app.muted.add('kimai');
    const peer = await rawPeer(dataDir);
    await peer.hello();
    peer.send({ type: 'ask', id: 'a1', ...formAsk(), call });
    expect(await peer.frame('answer')).toMatchObject({ answer: { action: 'cancel' }, decidedBy: 'mute-rule' });
    expect(app.asked).toHaveLength(0);
    expect((app.events[1]![1] as AnswerEvent).decidedBy).toBe('mute-rule');
  });

  it('a cancel frame, or the peer going away, withdraws the question and records it as cancelled', async () => {
    const { dataDir, app } = await setup();
    const peer = await rawPeer(dataDir);
    await peer.hello();
    let shown = app.next();
    peer.send({ type: 'ask', id: 'c1', ...formAsk(), call });
    const first = await shown;
    peer.send({ type: 'cancel', id: 'c1' });
    expect(await peer.frame('withdrawn')).toMatchObject({ id: 'c1', reason: 'the agent cancelled the call' });
    expect(first.signal.aborted).toBe(true);
    expect(app.events.at(-1)).toEqual([
      'answerRecorded',
      expect.objectContaining({ answer: { action: 'cancel' }, decidedBy: 'call-cancelled' }),
    ]);
    shown = app.next();
    peer.send({ type: 'ask', id: 'c2', ...formAsk(), call });
    const second = await shown;
    peer.socket.destroy();
    await new Promise((r) => setTimeout(r, 80));
    expect(second.signal.aborted).toBe(true);
    expect(app.events.filter((e) => e[0] === 'answerRecorded')).toHaveLength(2);
  });

  it('does not send an answer it could not record', async () => {
    const { dataDir, app } = await setup({
      answerRecorded: async () => {
        throw new Error('disk full');
      },
    });
    const peer = await rawPeer(dataDir);
    await peer.hello();
    const shown = app.next();
    peer.send({ type: 'ask', id: 'a1', ...formAsk(), call });
    (await shown).resolve({ answer: { action: 'accept', content: {} }, decidedBy: 'human' });
    expect(await peer.frame('withdrawn')).toMatchObject({
      reason: expect.stringContaining('could not record the answer, so it was not sent: disk full'),
    });
    expect(peer.frames.some((f) => f.type === 'answer')).toBe(false);
  });

  it('takes one end per call asked on that connection, from that connection only, and caps open questions per peer', async () => {
    const { dataDir, app, logs } = await setup({}, { maxPendingPerPeer: 1 });
    const peer = await rawPeer(dataDir);
    await peer.hello();
    const ended = {
      type: 'call-ended',
      callId: call.callId,
      outcome: 'error',
      error: 'the server went away',
      rounds: 1,
    };
    const shown = app.next();
    peer.send({ type: 'ask', id: 'a1', ...formAsk(), call });
    peer.send({ type: 'ask', id: 'a2', ...formAsk(), call });
    expect(await peer.frame('withdrawn')).toMatchObject({
      id: 'a2',
      reason: 'too many open questions from this agent connection',
    });
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    await peer.frame('answer', 'a1');
    // Another connection cannot end this connection's call: it is dropped, and leaves one fault.
    const intruder = await rawPeer(dataDir);
    await intruder.hello();
    intruder.send(ended);
    await intruder.closed;
    peer.send(ended);
    await eventuallyTrue(() => app.events.some((e) => e[0] === 'callEnded'));
    // The call as the app saw it in the question, with only how it ended taken from the peer.
    expect(app.events.find((e) => e[0] === 'callEnded')![1]).toEqual({
      call: { ...call, reportedBy: 'gateway' },
      outcome: 'error',
      error: 'the server went away',
      rounds: 1,
      endedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // Once per call: a second end drops the peer too.
    peer.send(ended);
    await peer.closed;
    await eventuallyTrue(() => app.events.filter((e) => e[0] === 'fault').length === 2);
    expect(app.events.filter((e) => e[0] === 'callEnded')).toHaveLength(1);
    expect(app.events.filter((e) => e[0] === 'fault').map((e) => e[1])).toEqual([
      expect.objectContaining({ code: 'protocol', details: { reason: 'approval-peer-dropped' } }),
      expect.objectContaining({ code: 'protocol', details: { reason: 'approval-peer-dropped' } }),
    ]);
    expect(logs.filter((l) => l.includes('it sent an end for call "call-1", no call that asked'))).toHaveLength(2);
  });

  it.each([
    [
      'a fault of its own',
      { type: 'record', event: 'fault', payload: { call, code: 'invalid-schema', message: 'nested', at: 't' } },
      'malformed frame',
    ],
    [
      'an end for a call it never asked about',
      { type: 'call-ended', callId: 'call-9', outcome: 'complete', rounds: 1 },
      'it sent an end for call "call-9"',
    ],
    [
      'an oversized end',
      {
        type: 'call-ended',
        callId: call.callId,
        outcome: 'error',
        error: 'x'.repeat(LIMITS.errorLineChars + 1),
        rounds: 1,
      },
      'malformed frame at error',
    ],
    [
      'an end for a sign-in nobody accepted',
      { type: 'sign-in-end', id: 'a1', outcome: 'completed' },
      'it sent a sign-in end for "a1"',
    ],
  ])(
    'drops a peer that proved the key and then sends %s: one fault, nothing of it recorded',
    async (_w, frame, why) => {
      const { dataDir, app, logs } = await setup();
      const peer = await rawPeer(dataDir);
      await peer.hello();
      const shown = app.next();
      peer.send({ type: 'ask', id: 'a1', ...formAsk(), call });
      (await shown).resolve({ answer: { action: 'accept', content: {} }, decidedBy: 'human' });
      await peer.frame('answer', 'a1');
      peer.send(frame);
      await peer.closed;
      await eventuallyTrue(() => app.events.some((e) => e[0] === 'fault'));
      expect(app.events.map((e) => e[0])).toEqual(['questionAsked', 'answerRecorded', 'fault']);
      expect((app.events[2]![1] as FaultEvent).message).toContain(why);
      expect(logs.join('\n')).toContain(why);
    },
  );
});

describe('forged history (issue 21, item 4)', () => {
  it('takes one end per sign-in the human accepted on that connection; a second one drops the peer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    const app = fakeApp();
    const steps: SignInEvent[] = [];
    const opened: string[] = [];
    const host: ApprovalHost = {
      ...app.host,
      questions: {
        ...app.host.questions,
        signIn: async () => 'open',
        signInWaiting: (_q, signal) =>
          new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        openSignInLink: async (url) => void opened.push(url),
      },
      recordSignIn: async (e) => void steps.push(e),
    };
    const server = await startApprovalServer({ service: host, dataDir, log: () => undefined });
    cleanup.push(() => server.close());
    const peer = await rawPeer(dataDir);
    await peer.hello();
    const signIn = {
      server: 'notes',
      call: null,
      issuer: 'https://auth.example.com',
      url: { href: 'https://auth.example.com/authorize?state=s' },
      scopes: ['mcp:read'],
      stepUp: false,
    };
    peer.send({ type: 'sign-in', id: 's1', signIn });
    expect(await peer.frame('answer', 's1')).toMatchObject({ answer: { action: 'accept' } });
    peer.send({ type: 'sign-in-open', id: 's1' });
    await eventuallyTrue(() => steps.some((e) => e.phase === 'opened'));
    peer.send({ type: 'sign-in-end', id: 's1', outcome: 'completed' });
    await eventuallyTrue(() => steps.some((e) => e.phase === 'completed'));
    peer.send({ type: 'sign-in-end', id: 's1', outcome: 'failed', error: 'made up' });
    await peer.closed;
    await server.close();
    expect(opened).toEqual([signIn.url.href]);
    expect(steps.map((e) => e.phase)).toEqual(['asked', 'opened', 'completed']);
    expect(app.events.map((e) => e[0])).toEqual(['fault']);
    expect((app.events[0]![1] as FaultEvent).message).toContain('it sent a sign-in end for "s1"');
  });

  it('a peer with the key that asked one question and then sends 2,000 records: dropped, one fault, verify intact', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    const historyDir = join(dataDir, 'history');
    const journal = await JournalHistory.open(historyDir, { watch: false });
    cleanup.push(() => journal.close());
    const app = fakeApp();
    const host: ApprovalHost = {
      ...app.host,
      observer: journal.observer,
      recordSignIn: (e) => journal.recordSignIn(e),
    };
    const logs: string[] = [];
    const server = await startApprovalServer({ service: host, dataDir, log: (l) => void logs.push(l) });
    cleanup.push(() => server.close());
    const peer = await rawPeer(dataDir);
    await peer.hello();
    const shown = app.next();
    peer.send({ type: 'ask', id: 'a1', ...formAsk(), call });
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    await peer.frame('answer', 'a1');
    // The attack as it was run: faults "reported by gateway" and a made-up call end, in one write.
    const forged = Array.from({ length: 2_000 }, (_, i) =>
      i === 1_000
        ? { type: 'record', event: 'callEnded', payload: { call, outcome: 'complete', rounds: 9, endedAt: 't' } }
        : {
            type: 'record',
            event: 'fault',
            payload: { call, code: 'protocol', message: `forged ${i} ${'x'.repeat(1_600)}`, at: 't' },
          },
    );
    peer.socket.write(forged.map((f) => `${JSON.stringify(f)}\n`).join(''));
    await peer.closed;
    await server.close();
    const { entries } = await readJournal(historyDir);
    expect(entries.map((e) => e.kind)).toEqual(['question', 'answer', 'fault']);
    expect(entries[2]).toMatchObject({ fault: 'approval-channel', detail: expect.stringContaining('malformed frame') });
    expect(JSON.stringify(entries)).not.toContain('forged');
    const report = await verifyJournal(historyDir);
    expect(report).toMatchObject({ ok: true, entries: 3 });
    expect(logs.filter((l) => l.includes('dropped a gateway connection'))).toHaveLength(1);
  });
});

describe('the gateway side (ApprovalClient)', () => {
  const ask: AskFrame = { ...formAsk(), call };

  it('asks and gets the recorded answer; a cancelled call cancels the question in the app', async () => {
    const { dataDir, app } = await setup();
    const c = client(dataDir);
    let shown = app.next();
    const answered = c.ask(ask, new AbortController().signal);
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    expect(await answered).toEqual({ answer: { action: 'decline' }, decidedBy: 'human' });
    const controller = new AbortController();
    shown = app.next();
    const pending = c.ask(ask, controller.signal);
    const q = await shown;
    controller.abort(new HostError('cancelled', 'agent cancelled'));
    await expect(pending).rejects.toThrow('agent cancelled');
    await new Promise((r) => setTimeout(r, 80));
    expect(q.signal.aborted).toBe(true);
  });

  it("a refusal whose sentence quotes much of the server's form is cut to fit the wire; other calls go on", async () => {
    const { dataDir, app, server } = await setup();
    const c = client(dataDir);
    const shown = app.next();
    const innocent = c.ask({ ...formAsk(), call: { ...call, callId: 'call-2' } }, new AbortController().signal);
    await shown;
    // Fifteen nested objects: the gate names each one, a sentence far over the wire's limit for a reason.
    const properties = Object.fromEntries(
      Array.from({ length: 15 }, (_, i) => [`address_${i}`, { type: 'object', properties: {} }]),
    );
    const hostile = c.ask(
      {
        ...formAsk({ question: { mode: 'form', message: 'x', requestedSchema: { type: 'object', properties } } }),
        call,
      },
      new AbortController().signal,
    );
    await expect(hostile).rejects.toMatchObject({ code: 'invalid-schema' });
    await expect(hostile).rejects.toThrow(
      /^server "kimai" sent a form the host cannot show safely .* more characters cut\)$/,
    );
    // The connection held: the first call's question is still open and its answer still arrives.
    expect(server.peerCount).toBe(1);
    app.asked[0]!.resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    await expect(innocent).resolves.toMatchObject({ answer: { action: 'decline' } });
  });

  it('a question too large for the wire is refused by the gateway; the connection goes on asking', async () => {
    const { dataDir, app, server } = await setup();
    const c = client(dataDir);
    const faults: FaultEvent[] = [];
    const logs: string[] = [];
    const questions = new RemoteQuestions(
      c,
      { observer: { fault: (e) => void faults.push(e) }, isMuted: () => false, timeLimitMinutes: () => 0 },
      (l) => void logs.push(l),
    );
    const ctx = { call: { ...call, arguments: {} }, server: 'kimai', era: 'modern' as const, round: 1, key: 'confirm' };
    const huge = { mode: 'form', message: 'x'.repeat(MAX_FRAME_BYTES), requestedSchema: { type: 'object' } };
    const refused = questions.ask(huge, ctx, new AbortController().signal);
    await expect(refused).rejects.toMatchObject({ code: 'invalid-schema' });
    await expect(refused).rejects.toThrow(/^server "kimai" sent a question too large to pass to the Countersign app/);
    expect(faults.map((f) => f.code)).toEqual(['invalid-schema']);
    expect(logs).toEqual([expect.stringMatching(/^countersign gateway: refused a question before sending it/)]);
    // Sent, the app would have dropped the connection and every call on it; instead the next question is asked.
    const shown = app.next();
    const answered = questions.ask(formAsk().question, ctx, new AbortController().signal);
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    await expect(answered).resolves.toMatchObject({ answer: { action: 'decline' } });
    expect(server.peerCount).toBe(1);
  });

  it('no app and starting it turned off: the clear error, at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    await expect(client(dataDir).ask(ask, new AbortController().signal)).rejects.toThrow(ApprovalUnavailableError);
    await expect(client(dataDir).ask(ask, new AbortController().signal)).rejects.toThrow(
      /^approval app not running, nothing was done: /,
    );
  });

  it('starts the app once for questions that arrive together, then uses it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    const app = fakeApp();
    let starts = 0;
    const c = client(dataDir, {
      description: 'in-process app',
      async start() {
        starts += 1;
        setTimeout(
          () =>
            void startApprovalServer({ service: app.host, dataDir, log: () => undefined }).then((s) =>
              cleanup.push(() => s.close()),
            ),
          300,
        );
        return { exited: new Promise<number | null>(() => undefined) };
      },
    });
    const a = c.ask(ask, new AbortController().signal);
    const b = c.ask(ask, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 600));
    for (const q of app.asked) q.resolve({ answer: { action: 'accept', content: {} }, decidedBy: 'human' });
    await expect(Promise.all([a, b])).resolves.toHaveLength(2);
    expect(starts).toBe(1);
  });

  it('an app that cannot start fails fast, and is not started again at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    let starts = 0;
    const c = client(dataDir, {
      description: 'broken app',
      start: async () => (starts++, { exited: Promise.resolve(3) }),
    });
    await expect(c.ask(ask, new AbortController().signal)).rejects.toThrow(
      'Countersign could not start its app (broken app exited with code 3)',
    );
    await expect(c.ask(ask, new AbortController().signal)).rejects.toThrow('broken app exited with code 3');
    expect(starts).toBe(1);
  });

  it('the app closing withdraws open questions; a restarted app is used again', async () => {
    const { dataDir, app, server } = await setup();
    const c = client(dataDir);
    const shown = app.next();
    const pending = c.ask(ask, new AbortController().signal).catch((e: unknown) => e);
    await shown;
    await server.close();
    const error = (await pending) as ApprovalWithdrawnError;
    expect(error).toBeInstanceOf(ApprovalWithdrawnError);
    expect(error.appReason).toBe('the Countersign app is closing');
    // A restarted app (new socket, new token) is found again by the same client.
    const restarted = fakeApp();
    const again = await startApprovalServer({ service: restarted.host, dataDir, log: () => undefined });
    cleanup.push(() => again.close());
    const next = restarted.next();
    const answered = c.ask(ask, new AbortController().signal);
    (await next).resolve({ answer: { action: 'cancel' }, decidedBy: 'human' });
    expect(await answered).toEqual({ answer: { action: 'cancel' }, decidedBy: 'human' });
  });

  it('tells a running app how a call that asked there ended, once, and never starts an app or reconnects to say it', async () => {
    const { dataDir, app, server } = await setup();
    const c = client(dataDir);
    const shown = app.next();
    const answered = c.ask(ask, new AbortController().signal);
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    await answered;
    const end = { callId: call.callId, outcome: 'complete' as const, rounds: 1 };
    c.callEnded(end);
    c.callEnded(end); // once
    c.callEnded({ ...end, callId: 'never-asked' }); // a call the app never saw
    await eventuallyTrue(() => app.events.length >= 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(app.events.map((e) => e[0])).toEqual(['questionAsked', 'answerRecorded', 'callEnded']);
    // The connection is still up: the app saw nothing to drop it for.
    expect(server.peerCount).toBe(1);
    let started = false;
    const lonely = client(mkdtempSync(join(tmpdir(), 'cs-appr-')), {
      description: 'x',
      start: async () => ((started = true), { exited: Promise.resolve(0) }),
    });
    lonely.callEnded(end);
    await new Promise((r) => setTimeout(r, 100));
    expect(started).toBe(false);
  });
});

/** A process that took over the socket path: it listens, keeps every byte it is sent, and knows no key. */
async function impostor(path: string, reply?: (line: string, socket: Socket) => void) {
  const received: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (d) => {
      buffer += d.toString('utf8');
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        received.push(line);
        reply?.(line, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(path, () => r()));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { received, server };
}

describe.skipIf(process.platform === 'win32')('a replaced socket (issue 9, item 3)', () => {
  const ask: AskFrame = { ...formAsk(), call };

  it('the gateway never sends the key, and hands nothing to a socket holder that cannot prove it knows it', async () => {
    const { dataDir, server } = await setup();
    const key = readFileSync(server.endpoint.tokenFile, 'utf8').trim();
    const logs: string[] = [];
    const c = new ApprovalClient({ dataDir, launcher: null, log: (l) => void logs.push(l) });
    cleanup.push(() => c.close());
    // Take the path over, as a same-folder process would: unlink, bind our own.
    unlinkSync(server.endpoint.socketPath);
    // It plays the app as far as it can: a challenge with a made-up proof, then a welcome.
    const fake = await impostor(server.endpoint.socketPath, (line, socket) => {
      const frame = JSON.parse(line) as { type: string };
      if (frame.type !== 'hello') return;
      socket.write(`${JSON.stringify({ type: 'challenge', nonce: newNonce(), proof: 'c'.repeat(64) })}\n`);
      socket.write(`${JSON.stringify({ type: 'welcome', protocol: APPROVAL_PROTOCOL, app: 'desktop' })}\n`);
    });
    await expect(c.ask(ask, new AbortController().signal)).rejects.toThrow(
      'approval app not running, nothing was done: the approval socket is held by a process that is not the Countersign app; nothing was sent to it',
    );
    // It got a hello with a nonce, and nothing else: no key, no proof, no question.
    expect(fake.received).toHaveLength(1);
    expect(JSON.parse(fake.received[0]!)).toEqual({
      type: 'hello',
      protocol: APPROVAL_PROTOCOL,
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(fake.received.join('\n')).not.toContain(key);
    expect(fake.received.join('\n')).not.toContain('Delete entry 4?');
    expect(logs.join('\n')).toContain('is not the Countersign app of this data folder');
  });

  it('a socket holder that stays silent, or answers before proving anything, gets nothing either', async () => {
    const { dataDir, server } = await setup();
    unlinkSync(server.endpoint.socketPath);
    const fake = await impostor(server.endpoint.socketPath, (line, socket) => {
      if ((JSON.parse(line) as { type: string }).type === 'hello')
        socket.write(
          `${JSON.stringify({ type: 'answer', id: 'q1', answer: { action: 'accept', content: {} }, decidedBy: 'human' })}\n`,
        );
    });
    const c = new ApprovalClient({ dataDir, launcher: null, log: () => undefined });
    cleanup.push(() => c.close());
    await expect(c.ask(ask, new AbortController().signal)).rejects.toThrow(ApprovalUnavailableError);
    expect(fake.received.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['hello']);
  });

  it('the app notices its socket was removed, says so loudly (log, banner, history), and binds it again', async () => {
    const { dataDir, app, logs, server } = await setup();
    unlinkSync(server.endpoint.socketPath);
    await server.checkSocket();
    await eventuallyTrue(() => app.alerts.some((a) => a.kind === 'socket-restored'));
    expect(app.alerts.map((a) => a.kind)).toEqual(['socket-missing', 'socket-restored']);
    expect(app.alerts[0]!.message).toContain(`removed the approval socket ${server.endpoint.socketPath}`);
    expect(logs.join('\n')).toMatch(/countersign: WARNING: another process removed the approval socket/);
    expect(app.events.find((e) => e[0] === 'fault')?.[1]).toMatchObject({
      call: null,
      code: 'connection',
      details: { reason: 'approval-socket-missing' },
    });
    // A fresh socket at the same path, private again, and gateways reach the app through it.
    expect(statSync(server.endpoint.socketPath).mode & 0o777).toBe(0o600);
    const shown = app.next();
    const answered = client(dataDir).ask(ask, new AbortController().signal);
    (await shown).resolve({ answer: { action: 'decline' }, decidedBy: 'human' });
    expect(await answered).toEqual({ answer: { action: 'decline' }, decidedBy: 'human' });
  });

  it('notices on its own (no check asked for), and a live socket of another process is reported, not fought over', async () => {
    const { app, logs, server } = await setup({}, { socketPollMs: 50 });
    unlinkSync(server.endpoint.socketPath);
    const fake = await impostor(server.endpoint.socketPath);
    await eventuallyTrue(() => app.alerts.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(app.alerts.map((a) => a.kind)).toEqual(['socket-replaced']);
    expect(app.alerts[0]!.message).toContain('listens there now');
    expect(logs.join('\n')).toContain('WARNING: another process replaced the approval socket');
    // The other process's socket is still there: the app did not unlink it.
    expect(fake.server.listening).toBe(true);
    expect(statSync(server.endpoint.socketPath).isSocket()).toBe(true);
  });
});

async function eventuallyTrue(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a question nobody can see (issue 9, item 16)', () => {
  it('is refused at once with code not-visible, never shown, recorded, and the human is notified', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-appr-'));
    const app = fakeApp();
    const notes: string[] = [];
    const host: ApprovalHost = {
      ...app.host,
      whenVisible: async () => ({ visible: false, reason: 'no browser tab is connected' }),
      notify: (title, body) => void notes.push(`${title}: ${body}`),
    };
    const server = await startApprovalServer({ service: host, dataDir, log: () => undefined });
    cleanup.push(() => server.close());
    const c = client(dataDir);
    const error = await c.ask({ ...formAsk(), call }, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalNotVisibleError);
    expect((error as Error).message).toBe(
      'approval app started but not visible: nothing was done: no browser tab is connected',
    );
    expect(app.asked).toHaveLength(0);
    expect(notes).toEqual([expect.stringContaining('nothing was done')]);
    expect(app.events).toEqual([
      [
        'fault',
        expect.objectContaining({
          code: 'connection',
          call: { ...call, reportedBy: 'gateway' },
          details: { reason: 'approval-app-not-visible', server: 'kimai' },
        }),
      ],
    ]);
  });
});
