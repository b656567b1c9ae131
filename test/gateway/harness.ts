// End-to-end set-up for the gateway: a data folder listing real fixture
// servers, the APP side running for real in the test process (HostService +
// journal + approval server, answering through the host API as a human
// would), and an SDK client playing the agent against the gateway as a real
// process. Every message the agent receives is kept, so tests can prove that
// nothing of a question or an answer reached it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import * as z from 'zod';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Answer, Question } from '../../shared/elicitation/types';
import type { HostEvents } from '../../shared/host-api/contract';
import { startApprovalServer, type ApprovalServer } from '../../electron/core/approval/approval-server';
import type { ServerEntry } from '../../electron/core/config/server-config';
import type { AnswerEvent, CallEndedEvent, FaultEvent, QuestionAskedEvent } from '../../electron/core/events';
import { HostService, type HistoryPort } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';
import { prepareTaskWire } from '../../electron/core/connection/task-wire';
import { fixtureCommand, newWireLogPath, readWireLog, type FixtureKind } from '../fixtures/spawn-fixture';

const here = dirname(fileURLToPath(import.meta.url));
export const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** The gateway entry: runGatewayCommand over the real process streams. */
export const GATEWAY_ENTRY = join(here, 'run-gateway.ts');

/** A data folder with a servers.json; fixture servers get their own wire logs. */
export function makeDataDir(servers: Record<string, FixtureKind | ServerEntry>): {
  dataDir: string;
  wireLogs: Record<string, string>;
} {
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-gw-'));
  const wireLogs: Record<string, string> = {};
  const mcpServers: Record<string, ServerEntry> = {};
  for (const [name, spec] of Object.entries(servers)) {
    if (typeof spec === 'string') {
      const { command, args } = fixtureCommand(spec);
      wireLogs[name] = newWireLogPath(name.replace(/[^a-z0-9]/gi, '_'));
      mcpServers[name] = { command, args, env: { FIXTURE_WIRE_LOG: wireLogs[name] } };
    } else {
      mcpServers[name] = spec;
    }
  }
  writeFileSync(join(dataDir, 'servers.json'), JSON.stringify({ mcpServers }, null, 2));
  return { dataDir, wireLogs };
}

/** Everything the app's history port was told, beside the real journal. */
export interface HistoryEvents {
  asked: QuestionAskedEvent[];
  answers: AnswerEvent[];
  ended: CallEndedEvent[];
  faults: FaultEvent[];
}

function recordingHistory(inner: JournalHistory): { port: HistoryPort; events: HistoryEvents } {
  const events: HistoryEvents = { asked: [], answers: [], ended: [], faults: [] };
  const port: HistoryPort = {
    observer: {
      questionAsked: async (e) => {
        events.asked.push(e);
        await inner.observer.questionAsked?.(e);
      },
      answerRecorded: async (e) => {
        events.answers.push(e);
        await inner.observer.answerRecorded?.(e);
      },
      callEnded: async (e) => {
        events.ended.push(e);
        await inner.observer.callEnded?.(e);
      },
      fault: async (e) => {
        events.faults.push(e);
        await inner.observer.fault?.(e);
      },
    },
    recordSignIn: (e) => inner.recordSignIn(e),
    query: (f) => inner.query(f),
    export: (f, fmt) => inner.export(f, fmt),
    setRedact: (r) => inner.setRedact(r),
    close: () => inner.close(),
    set onAppended(fn: ((seq: number) => void) | undefined) {
      inner.onAppended = fn ?? (() => undefined);
    },
  };
  return { port, events };
}

/** A scripted human: what to do with the next question. */
export type Reply = Answer | ((q: Question, app: App) => Answer | Promise<Answer | undefined> | undefined);

/** The app side, for real: the service, its journal and the approval server. */
export interface App {
  service: HostService;
  approval: ApprovalServer;
  history: HistoryEvents;
  /** Every question the human was shown, in order. */
  shown: Question[];
  removed: Array<HostEvents['questionRemoved']>;
  opened: string[];
  /** Links whose launcher page the app closed (the sign-in it was for ended). */
  closed: string[];
  /** Queue replies for the next questions (consumed in order). */
  reply(...replies: Reply[]): void;
  /** Resolves with the next question shown. */
  nextQuestion(): Promise<Question>;
  /** Resolves with the next removal. */
  nextRemoval(): Promise<HostEvents['questionRemoved']>;
  answer(questionId: string, answer: Answer): Promise<unknown>;
  close(): Promise<void>;
}

/** Start the app side on `dataDir`: a HostService (not connecting anything itself) plus the approval server. */
export async function startApp(dataDir: string): Promise<App> {
  const journal = await JournalHistory.open(join(dataDir, 'history'));
  const { port, events } = recordingHistory(journal);
  const opened: string[] = [];
  const closed: string[] = [];
  const service = await HostService.create({
    dataDir,
    history: port,
    openExternal: async (url) => {
      opened.push(url);
      return { close: async () => void closed.push(url) };
    },
    connectOnStart: false,
  });
  service.log = () => undefined;
  const approval = await startApprovalServer({ service, dataDir, app: 'test', log: () => undefined });
  const replies: Reply[] = [];
  const shown: Question[] = [];
  const removed: Array<HostEvents['questionRemoved']> = [];
  const waiters: Array<(q: Question) => void> = [];
  const removalWaiters: Array<(r: HostEvents['questionRemoved']) => void> = [];
  const app: App = {
    service,
    approval,
    history: events,
    shown,
    removed,
    opened,
    closed,
    reply: (...r) => void replies.push(...r),
    nextQuestion: () => new Promise((resolve) => waiters.push(resolve)),
    nextRemoval: () => new Promise((resolve) => removalWaiters.push(resolve)),
    answer: (questionId, answer) => service.invoke('answerQuestion', { questionId, answer }),
    async close() {
      await approval.close();
      await service.close();
    },
  };
  service.on('questionAdded', (q) => {
    shown.push(q);
    waiters.shift()?.(q);
    const next = replies.shift();
    if (next === undefined) return;
    void (async () => {
      const answer = typeof next === 'function' ? await next(q, app) : next;
      if (answer) await app.answer(q.id, answer);
    })();
  });
  service.on('questionRemoved', (r) => {
    removed.push(r);
    removalWaiters.shift()?.(r);
  });
  return app;
}

/** The agent: an SDK client and every message it received. */
export interface Agent {
  client: Client;
  received: any[];
  stderr(): string;
  close(): Promise<void>;
}

/** Keep every message a transport delivers, whoever reads it. */
function recordInbound(transport: Transport, received: any[]): void {
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () =>
      handler
        ? (message: any, extra?: any) => {
            received.push(structuredClone(message));
            handler!(message, extra);
          }
        : undefined,
    set: (h: Transport['onmessage']) => {
      handler = h;
    },
  });
}

// The SDK's auto mode probes in place on a subclass (one gateway process, not two).
class InPlaceStdio extends StdioClientTransport {}

export type AgentEra = 'modern' | 'legacy';

function agentClient(name: string, era: AgentEra, received: any[], violations: string[]): Client {
  const client = new Client({ name, version: '1.0.0' }, {
    // Declares everything an agent could: the gateway must use none of it.
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } },
    versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    listChanged: {
      tools: { onChanged: () => undefined },
      prompts: { onChanged: () => undefined },
      resources: { onChanged: () => undefined },
    },
  } as never);
  client.setRequestHandler('elicitation/create', async () => {
    violations.push('elicitation/create reached the agent');
    return { action: 'decline' };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    violations.push('sampling reached the agent');
    throw new Error('no');
  });
  void received;
  return client;
}

/** Start the gateway as a real process and connect an agent to it over stdio. */
export async function startAgent(
  dataDir: string,
  options: { era?: AgentEra; name?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<Agent & { violations: string[] }> {
  const received: any[] = [];
  const violations: string[] = [];
  let stderr = '';
  const transport = new InPlaceStdio({
    command: process.execPath,
    args: ['--import', tsxLoader, GATEWAY_ENTRY, ...(options.args ?? [])],
    env: {
      ...getDefaultEnvironment(),
      COUNTERSIGN_DATA_DIR: dataDir,
      COUNTERSIGN_GATEWAY_AUTOSTART: '0',
      COUNTERSIGN_GATEWAY_PROGRESS_MS: '150',
      ...options.env,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  recordInbound(transport, received);
  const client = agentClient(options.name ?? 'test-agent', options.era ?? 'modern', received, violations);
  await client.connect(transport);
  return { client, received, violations, stderr: () => stderr, close: () => client.close() };
}

/** Connect an agent to a running HTTP gateway. */
export async function httpAgent(
  url: string,
  token: string | undefined,
  options: { era?: AgentEra; name?: string } = {},
): Promise<Agent & { violations: string[] }> {
  const received: any[] = [];
  const violations: string[] = [];
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
  );
  recordInbound(transport, received);
  const client = agentClient(options.name ?? 'http-agent', options.era ?? 'modern', received, violations);
  await client.connect(transport);
  return { client, received, violations, stderr: () => '', close: () => client.close() };
}

/** The app serving the modern and legacy fixtures, and one agent connected to it through the gateway. */
export interface GatewaySetup {
  app: App;
  agent: Awaited<ReturnType<typeof startAgent>>;
  dataDir: string;
  wireLogs: Record<string, string>;
  /** The strings the two servers put in their results: the agent may see those, and nothing else of theirs. */
  serverStrings(): Set<string>;
  /** Calls a tool with scripted human replies; fails if anything the agent received meanwhile leaks `forbidden`. */
  call(
    name: string,
    args: Record<string, unknown>,
    replies: Reply[],
    forbidden?: string[],
  ): ReturnType<Client['callTool']>;
  close(): Promise<void>;
}

/** Starts the app on the modern and legacy fixtures and connects one agent (`options` as startAgent's). */
export async function startGatewaySetup(options: Parameters<typeof startAgent>[1]): Promise<GatewaySetup> {
  const { dataDir, wireLogs } = makeDataDir({ modern: 'modern', legacy: 'legacy' });
  const app = await startApp(dataDir);
  const agent = await startAgent(dataDir, options).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  const serverStrings = () =>
    new Set([...serverFinalStrings(wireLogs.modern!), ...serverFinalStrings(wireLogs.legacy!)]);
  return {
    app,
    agent,
    dataDir,
    wireLogs,
    serverStrings,
    async call(name, args, replies, forbidden = []) {
      const from = agent.received.length;
      app.reply(...replies);
      const result = await agent.client.callTool({ name, arguments: args });
      expect(leaks(agent.received.slice(from), forbidden, serverStrings())).toEqual([]);
      return result;
    },
    async close() {
      await agent.close();
      await app.close();
    },
  };
}

/**
 * Calls `name` and cancels it from the agent once the app shows its question:
 * the app must withdraw the dialog as "call-cancelled" and the agent's call
 * must reject. Resolves with the withdrawn question.
 */
export async function cancelFromAgent(
  app: App,
  agent: Agent,
  name: string,
  args: Record<string, unknown>,
): Promise<Question> {
  const controller = new AbortController();
  const shown = app.nextQuestion();
  const pending = agent.client.callTool({ name, arguments: args }, { signal: controller.signal }).then(
    () => 'resolved',
    () => 'rejected',
  );
  const q = await shown;
  const removal = app.nextRemoval();
  controller.abort();
  expect(await removal).toMatchObject({ questionId: q.id, reason: 'call-cancelled' });
  expect(await pending).toBe('rejected');
  return q;
}

/** Text of the first content block of a tool result. */
export function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';
}

/**
 * Every string a server put into its own complete results (final call
 * results, and its tool, prompt and resource lists), from its wire log.
 * Excluded: input_required rounds and every request the server sent: that
 * is where questions live.
 */
export function serverFinalStrings(wireLog: string): Set<string> {
  const out = new Set<string>();
  for (const e of readWireLog(wireLog)) {
    const result = e.dir === 'out' ? e.msg?.result : undefined;
    if (!result || result.resultType === 'input_required') continue;
    for (const [key, value] of Object.entries(result)) if (key !== '_meta') collectStrings(value, out);
  }
  return out;
}

function collectStrings(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, out);
}

/** `value` with every string the server itself produced removed. */
function withoutServerStrings(value: unknown, allowed: Set<string>): unknown {
  if (typeof value === 'string') return allowed.has(value) ? '' : value;
  if (Array.isArray(value)) return value.map((v) => withoutServerStrings(v, allowed));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutServerStrings(v, allowed)]));
  return value;
}

/** Words of the multi-round-trip and elicitation vocabularies: none may reach an agent. */
export const WIRE_WORDS = [
  'inputRequests',
  'inputResponses',
  'requestState',
  'input_required',
  'elicitation/create',
  'requestedSchema',
  'elicitationId',
  'elicitation/complete',
];

/**
 * Problems, if any, with what the agent received: a request from the
 * gateway to the agent, any of the wire words, or any `forbidden` text
 * anywhere except inside strings the server itself put in a final result.
 */
export function leaks(
  received: readonly unknown[],
  forbidden: readonly string[],
  serverStrings: Set<string>,
): string[] {
  const problems: string[] = [];
  for (const m of received) {
    const msg = m as { method?: string; id?: unknown };
    if (typeof msg.method === 'string' && msg.id !== undefined)
      problems.push(`the gateway sent the agent a request: ${msg.method}`);
    const text = JSON.stringify(withoutServerStrings(m, serverStrings));
    for (const word of [...WIRE_WORDS, ...forbidden])
      if (word !== '' && text.includes(word)) problems.push(`"${word}" reached the agent in ${text.slice(0, 300)}`);
  }
  return problems;
}

/** The capabilities the gateway declared to a fixture server, from its wire log. */
export function declaredUpstream(wireLog: string): unknown[] {
  const out: unknown[] = [];
  for (const e of readWireLog(wireLog)) {
    if (e.dir !== 'in' || typeof e.msg?.method !== 'string') continue;
    if (e.msg.method === 'initialize') out.push(e.msg.params?.capabilities);
    const meta = e.msg.params?._meta?.['io.modelcontextprotocol/clientCapabilities'];
    if (meta !== undefined) out.push(meta);
  }
  return out;
}

/** Wait until `check` holds (polling), or fail after `ms`. */
export async function eventually(check: () => boolean, ms = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The app, data folder and clean-up a gateway task test file shares (both task fixtures, tm and tl). */
export interface TaskGatewayFixtures {
  /** The app, started before the file's first test. */
  readonly app: App;
  dataDir: string;
  wireLogs: Record<string, string>;
  /** Run in reverse after the file's last test, before the app closes. */
  closers: Array<() => Promise<unknown>>;
  /** The environment a gateway process of this file starts with. */
  gatewayEnv(): Record<string, string>;
}

/** Register the file's before-all and after-all for the task fixtures, with `extraEnv` for its gateways. */
export function useTaskGatewayFixtures(extraEnv: Record<string, string> = {}): TaskGatewayFixtures {
  const { dataDir, wireLogs } = makeDataDir({ tm: 'tasks-modern', tl: 'tasks-legacy' });
  let app: App | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    app = await startApp(dataDir);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the app starts in beforeAll: use it inside a test');
      return app;
    },
    dataDir,
    wireLogs,
    closers,
    gatewayEnv: () => ({
      ...getDefaultEnvironment(),
      COUNTERSIGN_DATA_DIR: dataDir,
      COUNTERSIGN_GATEWAY_AUTOSTART: '0',
      ...extraEnv,
    }),
  };
}

/**
 * A 2026-07-28 agent (SDK 2.x) that declares the Tasks extension, with a gateway process of its own; task bodies
 * come through the core's task wire. `request` sends any method and takes any result.
 */
export async function connectTaskAgent(fx: TaskGatewayFixtures) {
  const transport = new InPlaceStdio({
    command: process.execPath,
    args: ['--import', tsxLoader, GATEWAY_ENTRY],
    env: fx.gatewayEnv(),
    stderr: 'pipe',
  });
  const wire = prepareTaskWire(transport as Transport);
  const client = new Client({ name: 'task-agent', version: '1.0.0' }, {
    capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as never);
  await client.connect(transport);
  wire.attach(true);
  fx.closers.push(() => client.close());
  const request = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params } as never, z.looseObject({}), { timeout: 30_000 }) as Promise<Record<string, any>>;
  return { transport, wire, client, request };
}
