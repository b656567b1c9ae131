/**
 * Proves the fixture servers work, using the SDK clients directly (no
 * Countersign code), and pins down how the SDK 2.x client behaves so the
 * host's own tests can rely on it.
 */
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  isInputRequiredResult,
  withInputRequired,
  type ElicitResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema as V1ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingDefaults } from '../fixtures/servers/booking-form';
import {
  fixtureCommand,
  newWireLogPath,
  readWireLog,
  startHttpFixture,
  type FixtureKind,
  type HttpFixture,
  type WireLogEntry,
} from '../fixtures/spawn-fixture';

/** A subclass: the SDK then probes `server/discover` in place instead of spawning a throw-away sibling process. */
class InPlaceStdioClientTransport extends StdioClientTransport {}

const CAPS = { elicitation: { form: {}, url: {} } };
const INFO = { name: 'fixtures-smoke', version: '0.0.0' };

type ToolResult = { content?: { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown };
type Answer = (key: string, request: { method: string; params: any }) => unknown;

function stdioTransport(kind: FixtureKind, wireLog: string): InPlaceStdioClientTransport {
  return new InPlaceStdioClientTransport({
    ...fixtureCommand(kind),
    env: { FIXTURE_WIRE_LOG: wireLog },
    stderr: 'pipe',
  });
}

/** A manual-mode 2026-07-28 client: input_required comes back to the caller. */
function modernClient(): Client {
  return new Client(INFO, {
    capabilities: CAPS,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    inputRequired: { autoFulfill: false },
  });
}

/** One tools/call leg in manual mode. */
function callRaw(client: Client, params: Record<string, unknown>): Promise<ToolResult | InputRequiredResult> {
  return client.request({ method: 'tools/call', params }, withInputRequired(CallToolResultSchema), {
    allowInputRequired: true,
  });
}

const firstText = (result: ToolResult) => result.content?.[0]?.text;

/** Drives a tool through its rounds: the host's loop in miniature. */
async function drive(client: Client, name: string, args: Record<string, unknown>, answer: Answer, maxRounds = 5) {
  const rounds: InputRequiredResult[] = [];
  let params: Record<string, unknown> = { name, arguments: args };
  for (let i = 0; i <= maxRounds; i++) {
    const result = await callRaw(client, params);
    if (!isInputRequiredResult(result)) return { result: result, rounds };
    rounds.push(result);
    const requests = result.inputRequests ?? {};
    const inputResponses = Object.fromEntries(
      Object.entries(requests).map(([key, request]) => [key, answer(key, request as never)]),
    );
    params = {
      name,
      arguments: args,
      ...(Object.keys(inputResponses).length > 0 && { inputResponses }),
      ...(result.requestState !== undefined && { requestState: result.requestState }),
    };
  }
  throw new Error(`${name}: still asking after ${maxRounds} rounds`);
}

const accept = (content: Record<string, unknown> = {}): ElicitResult => ({ action: 'accept', content }) as ElicitResult;
const always =
  (result: unknown): Answer =>
  () =>
    result;
const inbound = (log: WireLogEntry[], method: string) => log.filter((e) => e.dir === 'in' && e.msg?.method === method);

describe('modern fixture over stdio, pinned 2026-07-28, manual input_required', () => {
  let client: Client;
  const wireLog = newWireLogPath('modern-stdio');

  beforeAll(async () => {
    client = modernClient();
    await client.connect(stdioTransport('modern', wireLog));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the modern era', () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('countersign-modern-fixture');
  });

  it('confirm_delete answers input_required; a retry with inputResponses + requestState completes', async () => {
    const first = await callRaw(client, { name: 'confirm_delete', arguments: { entryId: 7 } });
    expect(isInputRequiredResult(first)).toBe(true);
    const ir = first as InputRequiredResult;
    expect(ir.inputRequests?.confirm).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Delete time entry 7?', requestedSchema: { type: 'object', properties: {} } },
    });
    expect(typeof ir.requestState).toBe('string');

    const done = (await callRaw(client, {
      name: 'confirm_delete',
      arguments: { entryId: 7 },
      inputResponses: { confirm: accept() },
      requestState: ir.requestState,
    })) as ToolResult;
    expect(done.isError).toBeFalsy();
    expect(firstText(done)).toBe('deleted entry 7');

    // The wire shows the retry as a NEW request carrying both fields verbatim.
    const calls = inbound(readWireLog(wireLog), 'tools/call').filter((e) => e.msg.params.name === 'confirm_delete');
    const [call1, call2] = calls.slice(-2);
    expect(call1!.msg.params.requestState).toBeUndefined();
    expect(call2!.msg.params.requestState).toBe(ir.requestState);
    expect(call2!.msg.params.inputResponses).toEqual({ confirm: { action: 'accept', content: {} } });
    expect(call2!.msg.id).not.toBe(call1!.msg.id);
    expect(call2!.msg.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(call2!.msg.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual(CAPS);
    expect(call2!.msg.params._meta['io.modelcontextprotocol/clientInfo']).toEqual(INFO);
    const out = readWireLog(wireLog).filter((e) => e.dir === 'out' && e.msg.id === call1!.msg.id);
    expect(out[0]!.msg.result.resultType).toBe('input_required');
  });

  it('confirm_delete reports decline and cancel as ordinary results', async () => {
    const declined = await drive(client, 'confirm_delete', { entryId: 8 }, always({ action: 'decline' }));
    expect(firstText(declined.result)).toBe('declined by the user, nothing was deleted');
    expect(declined.result.isError).toBeFalsy();
    const cancelled = await drive(client, 'confirm_delete', { entryId: 9 }, always({ action: 'cancel' }));
    expect(firstText(cancelled.result)).toBe('cancelled, nothing was deleted');
  });

  it('refuses retries whose requestState, keys or arguments are wrong', async () => {
    const first = (await callRaw(client, { name: 'confirm_delete', arguments: { entryId: 1 } })) as InputRequiredResult;
    const retry = (params: Record<string, unknown>) =>
      callRaw(client, { name: 'confirm_delete', arguments: { entryId: 1 }, ...params }) as Promise<ToolResult>;
    const tampered = await retry({ inputResponses: { confirm: accept() }, requestState: `${first.requestState}x` });
    expect(tampered.isError).toBe(true);
    expect(firstText(tampered)).toBe('requestState did not verify (mac)');
    const noState = await retry({ inputResponses: { confirm: accept() } });
    expect(firstText(noState)).toMatch(/without requestState/);
    const wrongKey = await retry({ inputResponses: { yes: accept() }, requestState: first.requestState });
    expect(firstText(wrongKey)).toBe('inputResponses keys [yes] do not match the keys asked [confirm]');
    const otherEntry = (await callRaw(client, {
      name: 'confirm_delete',
      arguments: { entryId: 2 },
      inputResponses: { confirm: accept() },
      requestState: first.requestState,
    })) as ToolResult;
    expect(firstText(otherEntry)).toBe('requestState was minted for entry 1, not 2');
    const otherTool = (await callRaw(client, {
      name: 'book_time',
      arguments: {},
      inputResponses: { booking: accept() },
      requestState: first.requestState,
    })) as ToolResult;
    expect(firstText(otherTool)).toBe('requestState belongs to confirm_delete, not book_time');
  });

  it('book_time shows every field kind with defaults and echoes the accepted content', async () => {
    const { result, rounds } = await drive(client, 'book_time', {}, always(accept(bookingDefaults())));
    const schema = (rounds[0]!.inputRequests!.booking as any).params.requestedSchema;
    expect(Object.keys(schema.properties)).toHaveLength(13);
    expect(schema.properties.priority.enumNames).toEqual(['Low', 'Normal', 'High']);
    expect(schema.properties.project.oneOf).toHaveLength(2);
    expect(schema.properties.reviewers.items.anyOf).toHaveLength(3);
    expect(result.structuredContent).toEqual(bookingDefaults());
    expect(JSON.parse(firstText(result)!)).toEqual(bookingDefaults());

    const bad = await drive(client, 'book_time', {}, always(accept({ ...bookingDefaults(), hours: 99, tags: [] })));
    expect(bad.result.isError).toBe(true);
    expect(firstText(bad.result)).toMatch(/^invalid booking: hours: .*; tags: /);
    expect(firstText((await drive(client, 'book_time', {}, always({ action: 'decline' }))).result)).toBe(
      'declined by the user, nothing was booked',
    );
  });

  it('two_questions asks two keys in one round and names both answers', async () => {
    const { result, rounds } = await drive(client, 'two_questions', {}, (key) =>
      key === 'project' ? accept({ project: 'ops' }) : { action: 'decline' },
    );
    expect(rounds).toHaveLength(1);
    expect(Object.keys(rounds[0]!.inputRequests!).sort()).toEqual(['confirm', 'project']);
    expect(firstText(result)).toBe('project: accept {"project":"ops"}; confirm: decline');
  });

  it('two_rounds carries round progress in requestState', async () => {
    const { result, rounds } = await drive(client, 'two_rounds', {}, (key) =>
      key === 'name' ? accept({ name: 'Ada' }) : accept(),
    );
    expect(rounds).toHaveLength(2);
    expect((rounds[1]!.inputRequests!.confirm as any).params.message).toBe('Book the time for Ada?');
    expect(rounds[1]!.requestState).not.toBe(rounds[0]!.requestState);
    expect(firstText(result)).toBe('booked for Ada after 2 rounds');
  });

  it('connect_account asks in URL mode and completes on the retry after accept', async () => {
    const { result, rounds } = await drive(client, 'connect_account', {}, always({ action: 'accept' }));
    const params = (rounds[0]!.inputRequests!.connect as any).params;
    expect(params.mode).toBe('url');
    expect(params.url).toMatch(/^https:\/\/example\.com\/oauth\?state=[0-9a-f-]{36}$/);
    expect(params.elicitationId).toBeUndefined();
    expect(firstText(result)).toBe('account connected');
    expect(firstText((await drive(client, 'connect_account', {}, always({ action: 'cancel' }))).result)).toBe(
      'cancelled, account not connected',
    );
  });

  it('pacing sends state-only rounds, presented by the client as inputRequests: {}', async () => {
    const first = (await callRaw(client, { name: 'pacing', arguments: { rounds: 2 } })) as InputRequiredResult;
    expect(isInputRequiredResult(first)).toBe(true);
    expect(first.inputRequests).toEqual({});
    const out = readWireLog(wireLog)
      .filter((e) => e.dir === 'out' && e.msg.result?.resultType === 'input_required')
      .at(-1)!;
    expect(out.msg.result.inputRequests).toBeUndefined(); // absent on the wire
    await new Promise((resolve) => setTimeout(resolve, 120));
    const second = (await callRaw(client, {
      name: 'pacing',
      arguments: { rounds: 2 },
      requestState: first.requestState,
    })) as InputRequiredResult;
    expect(isInputRequiredResult(second)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const done = (await callRaw(client, {
      name: 'pacing',
      arguments: { rounds: 2 },
      requestState: second.requestState,
    })) as ToolResult;
    expect(firstText(done)).toBe('paced 2 rounds, then done');
    const { gapsMs } = done.structuredContent as { gapsMs: number[] };
    expect(gapsMs).toHaveLength(2);
    expect(Math.min(...gapsMs)).toBeGreaterThanOrEqual(100);
    const leaked = (await callRaw(client, {
      name: 'pacing',
      arguments: { rounds: 2 },
      requestState: first.requestState,
      inputResponses: { x: accept() },
    })) as ToolResult;
    expect(firstText(leaked)).toBe('pacing asked no questions, yet inputResponses arrived');
  });

  it('never_stops keeps asking', async () => {
    await expect(drive(client, 'never_stops', {}, always(accept()), 4)).rejects.toThrow(/still asking after 4 rounds/);
  });

  it('bad_schema asks with a nested schema; refusing is reported as expected', async () => {
    const { result, rounds } = await drive(client, 'bad_schema', {}, always({ action: 'decline' }));
    expect((rounds[0]!.inputRequests!.details as any).params.requestedSchema.properties.address.type).toBe('object');
    expect(firstText(result)).toBe('refused as expected (decline)');
  });

  it('ask_sampling puts an undeclared sampling/createMessage on the wire; honest:true gets the SDK gate (-32021)', async () => {
    const first = (await callRaw(client, { name: 'ask_sampling', arguments: {} })) as InputRequiredResult;
    expect((first.inputRequests!.sample as any).method).toBe('sampling/createMessage');
    const error = await callRaw(client, { name: 'ask_sampling', arguments: { honest: true } }).catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it('plain tools answer at once and flag leaked multi-round-trip fields', async () => {
    expect(firstText((await callRaw(client, { name: 'add_numbers', arguments: { a: 2, b: 3 } })) as ToolResult)).toBe(
      'The sum of 2 and 3 is 5.',
    );
    expect(firstText((await callRaw(client, { name: 'echo', arguments: { text: 'hi' } })) as ToolResult)).toBe('hi');
    const leaked = (await callRaw(client, {
      name: 'echo',
      arguments: { text: 'hi' },
      requestState: 'x',
    })) as ToolResult;
    expect(leaked.isError).toBe(true);
    expect(firstText(leaked)).toMatch(/asks no questions, yet the request carried requestState/);
  });

  it('the greeting prompt and the secret-note resource ask before answering', async () => {
    const prompt = (await client.request(
      { method: 'prompts/get', params: { name: 'greeting', arguments: { name: 'Ada' } } },
      { allowInputRequired: true },
    )) as any;
    expect(isInputRequiredResult(prompt)).toBe(true);
    expect(prompt.inputRequests.confirm.params.message).toBe('Greet Ada?');
    const greeted = (await client.request(
      {
        method: 'prompts/get',
        params: {
          name: 'greeting',
          arguments: { name: 'Ada' },
          inputResponses: { confirm: accept() },
          requestState: prompt.requestState,
        },
      },
      { allowInputRequired: true },
    )) as any;
    expect(greeted.messages[0].content.text).toBe('Hello, Ada! Welcome to Countersign.');

    const note = (await client.request(
      { method: 'resources/read', params: { uri: 'fixture://secret-note' } },
      { allowInputRequired: true },
    )) as any;
    expect(note.inputRequests.reveal.params.message).toBe('Reveal the secret note?');
    const read = (await client.request(
      {
        method: 'resources/read',
        params: {
          uri: 'fixture://secret-note',
          inputResponses: { reveal: { action: 'decline' } },
          requestState: note.requestState,
        },
      },
      { allowInputRequired: true },
    )) as any;
    expect(read.contents[0].text).toBe('withheld: declined by the user');
  });

  it('trap: callTool({allowInputRequired}) on a tool with an outputSchema throws -32600 once listTools() ran; request() does not', async () => {
    await client.listTools();
    const error = await client
      .callTool({ name: 'typed_confirm', arguments: { entryId: 4 } }, { allowInputRequired: true })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32600);
    const { result } = await drive(client, 'typed_confirm', { entryId: 4 }, always(accept()));
    expect(result.structuredContent).toEqual({ action: 'accept', deleted: true, entryId: 4 });
  });

  it('without allowInputRequired an input_required answer is an SdkError', async () => {
    const error = await client.callTool({ name: 'confirm_delete', arguments: { entryId: 1 } }).catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.code).toBe(SdkErrorCode.UnsupportedResultType);
  });
});

describe('modern fixture over stdio, SDK auto-fulfilment', () => {
  it('fulfils questions through the elicitation/create handler and stops at maxRounds', async () => {
    const client = new Client(INFO, {
      capabilities: CAPS,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { maxRounds: 3 },
    });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: {} };
    });
    await client.connect(stdioTransport('modern', newWireLogPath()));
    try {
      const done = await client.callTool({ name: 'confirm_delete', arguments: { entryId: 5 } });
      expect((done.content as any)[0].text).toBe('deleted entry 5');
      const error = await client.callTool({ name: 'never_stops', arguments: {} }).catch((e) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect(error.code).toBe(SdkErrorCode.InputRequiredRoundsExceeded);
      expect(asked).toEqual([
        'Delete time entry 5?',
        'Round 1: keep going?',
        'Round 2: keep going?',
        'Round 3: keep going?',
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('modern fixture over HTTP', () => {
  let server: HttpFixture;
  beforeAll(async () => {
    server = await startHttpFixture('modern');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the modern era with the MCP headers captured in the wire log', async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { result, rounds } = await drive(client, 'confirm_delete', { entryId: 11 }, always(accept()));
      expect(rounds).toHaveLength(1);
      expect(firstText(result)).toBe('deleted entry 11');
      const calls = inbound(readWireLog(server.wireLog), 'tools/call');
      expect(calls.at(-1)!.headers).toMatchObject({
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'confirm_delete',
      });
      expect(calls.at(-1)!.msg.params.requestState).toBe(rounds[0]!.requestState);
    } finally {
      await client.close();
    }
  });

  it('serves a legacy-mode client through a stateful session and real elicitation/create', async () => {
    const client = new Client(INFO, { capabilities: CAPS });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const result = await client.callTool({ name: 'confirm_delete', arguments: { entryId: 12 } });
      expect((result.content as any)[0].text).toBe('declined by the user, nothing was deleted');
      const log = readWireLog(server.wireLog);
      const asked = log.filter((e) => e.dir === 'out' && e.msg.method === 'elicitation/create').at(-1)!;
      expect(asked.msg.params.message).toBe('Delete time entry 12?');
      const answered = log.find((e) => e.dir === 'in' && e.msg.id === asked.msg.id && 'result' in e.msg)!;
      expect(answered.headers?.['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await client.close();
    }
  });
});

describe('modern fixture over stdio, legacy-mode client', () => {
  it('is served the 2025 way: initialize, then elicitation/create from the legacy shim', async () => {
    const wireLog = newWireLogPath();
    const client = new Client(INFO, { capabilities: CAPS });
    client.setRequestHandler('elicitation/create', async (request) =>
      request.params.message === 'What name should the booking use?' ? accept({ name: 'Bo' }) : accept(),
    );
    await client.connect(stdioTransport('modern', wireLog));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const result = await client.callTool({ name: 'two_rounds', arguments: {} });
      expect((result.content as any)[0].text).toBe('booked for Bo after 2 rounds');
      const log = readWireLog(wireLog);
      expect(log[0]!.msg.method).toBe('initialize');
      expect(log.filter((e) => e.dir === 'out' && e.msg.method === 'elicitation/create')).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe('era detection and the connect-time probe', () => {
  it("'auto' with a StdioClientTransport subclass probes in place: modern server -> modern, one process", async () => {
    const wireLog = newWireLogPath();
    const client = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    await client.connect(stdioTransport('modern', wireLog));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getDiscoverResult()?.supportedVersions).toEqual(['2026-07-28']);
      const log = readWireLog(wireLog);
      expect(log[0]!.msg.method).toBe('server/discover');
      expect(new Set(log.map((e) => e.pid)).size).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("'auto' in place against the 1.x server: -32601 to server/discover, the server survives, initialize follows", async () => {
    const wireLog = newWireLogPath();
    const client = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    client.setRequestHandler('elicitation/create', async () => accept());
    await client.connect(stdioTransport('legacy', wireLog));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const result = await client.callTool({ name: 'confirm_delete', arguments: { entryId: 1 } });
      expect((result.content as any)[0].text).toBe('deleted entry 1');
      const log = readWireLog(wireLog);
      expect(log.slice(0, 3).map((e) => `${e.dir}:${e.msg.method ?? e.msg.error?.code}`)).toEqual([
        'in:server/discover',
        'out:-32601',
        'in:initialize',
      ]);
      expect(new Set(log.map((e) => e.pid)).size).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("'auto' with the base StdioClientTransport spawns a second, throw-away probe process", async () => {
    const wireLog = newWireLogPath();
    const client = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StdioClientTransport({ ...fixtureCommand('modern'), env: { FIXTURE_WIRE_LOG: wireLog }, stderr: 'pipe' }),
    );
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      const log = readWireLog(wireLog);
      const discoverPid = log.find((e) => e.msg.method === 'server/discover')!.pid;
      const callPid = log.find((e) => e.msg.method === 'tools/call')!.pid;
      expect(callPid).not.toBe(discoverPid);
    } finally {
      await client.close();
    }
  });

  it('connect(transport, { prior }) adopts a cached verdict with zero round trips', async () => {
    const probe = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    await probe.connect(stdioTransport('modern', newWireLogPath()));
    const discover = probe.getDiscoverResult()!;
    await probe.close();

    const wireLog = newWireLogPath();
    const client = new Client(INFO, { capabilities: CAPS, inputRequired: { autoFulfill: false } });
    await client.connect(stdioTransport('modern', wireLog), { prior: { kind: 'modern', discover } });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(readWireLog(wireLog)).toEqual([]);
      expect(firstText((await callRaw(client, { name: 'echo', arguments: { text: 'y' } })) as ToolResult)).toBe('y');
    } finally {
      await client.close();
    }

    const legacyLog = newWireLogPath();
    const legacy = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    await legacy.connect(stdioTransport('legacy', legacyLog), { prior: { kind: 'legacy' } });
    try {
      expect(legacy.getProtocolEra()).toBe('legacy');
      expect(readWireLog(legacyLog)[0]!.msg.method).toBe('initialize');
    } finally {
      await legacy.close();
    }
  });

  it('a pin against the 1.x server fails with ERA_NEGOTIATION_FAILED', async () => {
    const client = modernClient();
    const error = await client.connect(stdioTransport('legacy', newWireLogPath())).catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.code).toBe(SdkErrorCode.EraNegotiationFailed);
    await client.close();
  });

  it("'auto' over HTTP against the 1.x server: the refused probe (400) is logged, then initialize", async () => {
    const server = await startHttpFixture('legacy');
    const client = new Client(INFO, { capabilities: CAPS, versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      expect(client.getProtocolEra()).toBe('legacy');
      const log = readWireLog(server.wireLog);
      expect(log[0]).toMatchObject({ dir: 'in', msg: { method: 'server/discover' }, httpStatus: 400 });
      expect(log[1]).toMatchObject({ dir: 'out', httpStatus: 400 });
      expect(log[2]!.msg.method).toBe('initialize');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A legacy-mode 2.x client that records every question and completion notice. */
function legacyClient(answer: (params: any) => ElicitResult) {
  const client = new Client(INFO, { capabilities: CAPS });
  const asked: any[] = [];
  const completed: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return answer(request.params);
  });
  client.setNotificationHandler('notifications/elicitation/complete', async (notification) => {
    completed.push(notification.params.elicitationId);
  });
  return { client, asked, completed };
}

const legacyAnswer = (params: any): ElicitResult =>
  params.mode === 'url'
    ? { action: 'accept' }
    : params.message === 'Book time on Countersign'
      ? accept(bookingDefaults())
      : accept();

for (const transportKind of ['stdio', 'http'] as const) {
  describe(`legacy (1.x) fixture over ${transportKind}`, () => {
    let server: HttpFixture | undefined;
    let wireLog: string;
    let session: ReturnType<typeof legacyClient>;

    beforeAll(async () => {
      session = legacyClient(legacyAnswer);
      if (transportKind === 'http') {
        server = await startHttpFixture('legacy');
        wireLog = server.wireLog;
        await session.client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      } else {
        wireLog = newWireLogPath();
        await session.client.connect(stdioTransport('legacy', wireLog));
      }
    });
    afterAll(async () => {
      await session?.client.close();
      await server?.close();
    });

    it('confirm_delete sends elicitation/create to the client handler', async () => {
      expect(session.client.getProtocolEra()).toBe('legacy');
      const result = await session.client.callTool({ name: 'confirm_delete', arguments: { entryId: 21 } });
      expect((result.content as any)[0].text).toBe('deleted entry 21');
      expect(session.asked.at(-1)).toMatchObject({
        mode: 'form',
        message: 'Delete time entry 21?',
        requestedSchema: { type: 'object', properties: {} },
      });
      const log = readWireLog(wireLog);
      const asked = log.filter((e) => e.dir === 'out' && e.msg.method === 'elicitation/create').at(-1)!;
      const answered = log.find((e) => e.dir === 'in' && e.msg.id === asked.msg.id && 'result' in e.msg)!;
      expect(answered.msg.result).toEqual({ action: 'accept', content: {} });
      if (transportKind === 'http') {
        expect(inbound(log, 'tools/call').at(-1)!.headers).toMatchObject({
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': expect.any(String),
        });
      }
    });

    it('book_time echoes the accepted defaults', async () => {
      const result = await session.client.callTool({ name: 'book_time', arguments: {} });
      expect(result.structuredContent).toEqual(bookingDefaults());
    });

    it('connect_account asks in URL mode and notifies completion before the result', async () => {
      const result = await session.client.callTool({ name: 'connect_account', arguments: {} });
      expect((result.content as any)[0].text).toBe('account connected');
      const params = session.asked.at(-1);
      expect(params).toMatchObject({
        mode: 'url',
        message: 'Connect your Example account to Countersign',
        elicitationId: expect.any(String),
      });
      expect(params.url).toMatch(/^https:\/\/example\.com\/oauth\?state=/);
      expect(session.completed).toContain(params.elicitationId);
    });

    it('needs_auth fails with -32042 and data.elicitations the first time, then succeeds', async () => {
      const error = await session.client.callTool({ name: 'needs_auth', arguments: {} }).catch((e) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.code).toBe(-32042);
      const [elicitation] = error.data.elicitations;
      expect(elicitation).toMatchObject({
        mode: 'url',
        elicitationId: expect.any(String),
        url: expect.stringMatching(/^https:\/\/example\.com\/authorize\?state=/),
      });
      const result = await session.client.callTool({ name: 'needs_auth', arguments: {} });
      expect((result.content as any)[0].text).toBe('authorized: calendar access granted');
      await expect.poll(() => session.completed.includes(elicitation.elicitationId), { timeout: 2_000 }).toBe(true);
    });

    it('plain tools answer without questions', async () => {
      const sum = await session.client.callTool({ name: 'add_numbers', arguments: { a: 4, b: 5 } });
      expect((sum.content as any)[0].text).toBe('The sum of 4 and 5 is 9.');
      const echo = await session.client.callTool({ name: 'echo', arguments: { text: 'legacy' } });
      expect((echo.content as any)[0].text).toBe('legacy');
    });
  });
}

describe('legacy (1.x) fixture with the 1.x client', () => {
  it('declines through an ElicitRequestSchema handler', async () => {
    const client = new V1Client(INFO, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(V1ElicitRequestSchema, async () => ({ action: 'decline' as const }));
    await client.connect(
      new V1StdioClientTransport({
        ...fixtureCommand('legacy'),
        env: { FIXTURE_WIRE_LOG: newWireLogPath() },
        stderr: 'pipe',
      }),
    );
    try {
      const result = await client.callTool({ name: 'confirm_delete', arguments: { entryId: 31 } });
      expect((result.content as any)[0].text).toBe('declined by the user, nothing was deleted');
    } finally {
      await client.close();
    }
  });
});
