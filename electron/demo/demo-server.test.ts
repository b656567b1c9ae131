// The shipped demo server, driven through the real Host over stdio in both
// eras, with a scripted human. The modern entry must negotiate 2026-07-28
// (MRTR, signed requestState); the legacy entry must push the host back to
// the 2025 `initialize` handshake and elicit with real elicitation/create.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, withInputRequired, isInputRequiredResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf } from '../../shared/elicitation/defaults';
import type { Answer, FormQuestion, Question, UrlQuestion } from '../../shared/elicitation/types';
import { isStdioEntry, type ServerEntry } from '../core/config/server-config';
import { Host } from '../core/host';
import type { Prompter, PrompterAnswer } from '../core/prompter/prompter';
import { DEMO_LEGACY_SERVER_NAME, DEMO_SERVER_NAME, demoLaunch, demoServers } from './demo-servers';
import { noInspectorFlags } from '../core/no-inspector';
import { TOOL_NAMES } from './tool-specs';

type Step = (q: Question) => Answer | Promise<Answer>;

/** A human with a script: one step per question, in order; every question is recorded. */
class ScriptedHuman implements Prompter {
  readonly asked: Question[] = [];
  private steps: Step[] = [];
  script(...steps: Step[]): this {
    this.steps = steps;
    this.asked.length = 0;
    return this;
  }
  async ask(q: Question): Promise<PrompterAnswer> {
    this.asked.push(q);
    const step = this.steps.shift();
    if (!step) throw new Error(`unscripted question: ${q.message}`);
    return { answer: await step(q), decidedBy: 'script' };
  }
}

const accept: Step = (q) =>
  q.mode === 'form' ? { action: 'accept', content: defaultsOf(q.requestedSchema) } : { action: 'accept' };
const acceptWith =
  (content: Record<string, string | number | boolean | string[]>): Step =>
  (q) => ({ action: 'accept', content: { ...defaultsOf((q as FormQuestion).requestedSchema), ...content } });
const decline: Step = () => ({ action: 'decline' });
const cancel: Step = () => ({ action: 'cancel' });

/** Plays the user on the consent page: open it, press "Authorize". */
async function authorizeInBrowser(url: string): Promise<void> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('>Authorize</button>');
  const nonce = /name="nonce" value="([^"]+)"/.exec(html)?.[1];
  const done = await fetch(`${url}/authorize`, { method: 'POST', body: new URLSearchParams({ nonce: nonce ?? '' }) });
  expect(done.status).toBe(200);
}
const authorizeThenAccept: Step = async (q) => {
  await authorizeInBrowser((q as UrlQuestion).url.href);
  return { action: 'accept' };
};

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');

/** The demo entries, with a short modern "wait for the browser" so the ask-again path is quick. */
function testEntries(): Record<string, ServerEntry> {
  const entries = demoServers();
  for (const entry of Object.values(entries))
    if (isStdioEntry(entry)) entry.env = { ...entry.env, COUNTERSIGN_DEMO_URL_WAIT_MS: '300' };
  return entries;
}

describe('demoServers()', () => {
  it('gives two stdio entries that run the TypeScript source through tsx in the source tree', () => {
    const entries = demoServers();
    expect(Object.keys(entries)).toEqual([DEMO_SERVER_NAME, DEMO_LEGACY_SERVER_NAME]);
    const modern = entries[DEMO_SERVER_NAME]!;
    const legacy = entries[DEMO_LEGACY_SERVER_NAME]!;
    if (!isStdioEntry(modern) || !isStdioEntry(legacy)) throw new Error('expected stdio entries');
    expect(modern.command).toBe(process.execPath);
    // First the flag that keeps SIGUSR1 from opening an inspector (core/no-inspector.ts).
    const guard = noInspectorFlags();
    expect(modern.args?.slice(0, guard.length)).toEqual(guard);
    expect(modern.args?.[guard.length]).toBe('--import');
    expect(modern.args?.[guard.length + 1]).toMatch(/^file:.*tsx/);
    expect(modern.args?.[guard.length + 2]).toMatch(/electron[\\/]demo[\\/]demo-server\.ts$/);
    expect(legacy.args).toEqual([...modern.args!, '--legacy']);
  });

  it('finds a bundled dist/demo/demo-server.mjs above a bundled copy of the code, and nothing when neither exists', () => {
    const root = mkdtempSync(join(tmpdir(), 'countersign-demo-layout-'));
    try {
      mkdirSync(join(root, 'dist', 'demo'), { recursive: true });
      mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
      expect(demoLaunch(join(root, 'dist', 'cli'))).toBeNull();
      writeFileSync(join(root, 'dist', 'demo', 'demo-server.mjs'), '');
      const launch = demoLaunch(join(root, 'dist', 'cli'), '/opt/Countersign/countersign');
      expect(launch).toMatchObject({
        kind: 'bundled',
        command: '/opt/Countersign/countersign',
        args: [join(root, 'dist', 'demo', 'demo-server.mjs')],
      });
      expect(demoServers(null)).toEqual({});
      // A bundled main process run from a checkout falls back to the TypeScript source.
      mkdirSync(join(root, 'electron', 'demo'), { recursive: true });
      writeFileSync(join(root, 'electron', 'demo', 'demo-server.ts'), '');
      rmSync(join(root, 'dist', 'demo'), { recursive: true });
      expect(demoLaunch(join(root, 'dist', 'cli'))).toMatchObject({
        kind: 'source',
        args: [
          ...noInspectorFlags(),
          '--import',
          expect.stringMatching(/^file:/),
          join(root, 'electron', 'demo', 'demo-server.ts'),
        ],
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.each([
  { era: 'modern' as const, server: DEMO_SERVER_NAME, version: '2026-07-28' },
  { era: 'legacy' as const, server: DEMO_LEGACY_SERVER_NAME, version: '2025-11-25' },
])('demo server, $era era, through the Host', ({ era, server, version }) => {
  const human = new ScriptedHuman();
  let host: Host;
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const { result, rounds } = await host.call({ server, method: 'tools/call', name: tool, arguments: args });
    return { text: textOf(result), isError: result.isError === true, rounds };
  };

  beforeAll(() => {
    host = new Host({ servers: testEntries(), prompter: human });
  });
  afterAll(async () => {
    await host.close();
  });

  it(`negotiates the ${era} era (${version})`, async () => {
    const conn = await host.connect(server);
    expect(conn.era).toBe(era);
    expect(conn.client.getProtocolEra()).toBe(era);
    expect(conn.protocolVersion).toBe(version);
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('delete_time_entry asks a confirm-only question and reports accept, decline and cancel differently', async () => {
    human.script(accept);
    expect((await call('delete_time_entry', { entryId: 42 })).text).toBe('Deleted time entry 42.');
    const q = human.asked[0] as FormQuestion;
    expect(q.mode).toBe('form');
    expect(q.requestedSchema.properties).toEqual({});
    expect(q.message).toContain('42');
    expect(q.origin).toMatchObject({ server, era, name: 'delete_time_entry' });

    human.script(decline);
    expect((await call('delete_time_entry', { entryId: 42 })).text).toBe('Declined by the user: nothing was deleted.');
    human.script(cancel);
    expect((await call('delete_time_entry', { entryId: 42 })).text).toBe(
      'Cancelled (dialog dismissed): nothing was deleted.',
    );
  });

  it('book_time shows one form with every field kind and summarises the accepted booking', async () => {
    human.script(
      acceptWith({
        description: 'Reviewed the Kimai export',
        hours: 2,
        tags: ['docs', 'review'],
        reviewers: ['ben', 'chen'],
        billable: false,
      }),
    );
    const r = await call('book_time', { day: '2026-07-28' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(
      'Booked 2 h on 2026-07-28 for Countersign (development, not billable, standard rate): "Reviewed the Kimai export".',
    );
    expect(r.text).toContain('Tags: docs, review.');
    expect(r.text).toContain('Reviewers: Ben Okafor, Chen Wei.');

    const props = (human.asked[0] as FormQuestion).requestedSchema.properties;
    const kinds = Object.values(props).map((p) => {
      if (p.type === 'array') return p.items?.anyOf ? 'multi-anyOf' : 'multi-enum';
      if (p.format) return p.format;
      if (p.oneOf) return 'oneOf';
      if (p.enumNames) return 'enumNames';
      if (p.enum) return 'enum';
      return p.type;
    });
    expect(new Set(kinds)).toEqual(
      new Set([
        'string',
        'email',
        'uri',
        'date',
        'date-time',
        'number',
        'integer',
        'boolean',
        'enum',
        'oneOf',
        'enumNames',
        'multi-enum',
        'multi-anyOf',
      ]),
    );
    expect(Object.values(props).every((p) => p.default !== undefined)).toBe(true);
    expect(props.description).toMatchObject({ minLength: 3, maxLength: 200 });
    expect(props.hours).toMatchObject({ minimum: 0.25, maximum: 24 });
    expect(props.tags).toMatchObject({ minItems: 1, maxItems: 3 });
    expect(props.day!.default).toBe('2026-07-28');

    human.script(decline);
    expect((await call('book_time')).text).toBe('Declined by the user: nothing was booked.');
    human.script(cancel);
    expect((await call('book_time')).text).toBe('Cancelled (dialog dismissed): nothing was booked.');
  });

  it('deploy to production asks twice: the plan, then a final confirmation', async () => {
    human.script(acceptWith({ strategy: 'blue-green', runMigrations: true }), accept);
    const done = await call('deploy', { service: 'billing-api', environment: 'production' });
    expect(done.text).toBe('Deployed billing-api to production (blue/green switch, migrations run).');
    expect(human.asked.map((q) => q.message)).toEqual([
      'Deploy billing-api: choose the environment and confirm the plan.',
      'Really deploy billing-api to production? Live users will get this version.',
    ]);
    expect((human.asked[1] as FormQuestion).requestedSchema.properties).toEqual({});
    if (era === 'modern') expect(done.rounds).toBe(2);

    human.script(accept, decline);
    expect((await call('deploy', { service: 'billing-api' })).text).toBe(
      'Declined at the final confirmation: billing-api was not deployed to production.',
    );
    human.script(accept, cancel);
    expect((await call('deploy', { service: 'billing-api' })).text).toBe(
      'Cancelled at the final confirmation (dialog dismissed): billing-api was not deployed to production.',
    );
    human.script(decline);
    expect((await call('deploy', { service: 'billing-api' })).text).toBe('Declined by the user: nothing was deployed.');
  });

  it('deploy to staging needs only the plan', async () => {
    human.script(acceptWith({ environment: 'staging' }));
    expect((await call('deploy', { service: 'web' })).text).toBe('Deployed web to staging (rolling update).');
    expect(human.asked).toHaveLength(1);
  });

  it('connect_calendar sends a URL question for its own 127.0.0.1 consent page and completes once "Authorize" was pressed', async () => {
    human.script(authorizeThenAccept);
    expect((await call('connect_calendar', { calendar: 'personal' })).text).toBe(
      'Connected the personal calendar (authorized in the browser).',
    );
    const q = human.asked[0] as UrlQuestion;
    expect(q.mode).toBe('url');
    expect(q.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/consent\/[A-Za-z0-9_-]{24}$/);
    expect(q.url.blocked).toBe(false);

    human.script(decline);
    expect((await call('connect_calendar')).text).toBe('Declined by the user: the calendar was not connected.');
    human.script(cancel);
    expect((await call('connect_calendar')).text).toBe('Cancelled (dialog dismissed): the calendar was not connected.');
  });

  it('add_numbers and echo ask nothing', async () => {
    human.script();
    expect((await call('add_numbers', { a: 2, b: 40 })).text).toBe('The sum of 2 and 40 is 42.');
    expect((await call('echo', { text: 'Grüße' })).text).toBe('Grüße');
    expect(human.asked).toHaveLength(0);
  });
});

describe('demo server specifics per era', () => {
  const human = new ScriptedHuman();
  let host: Host;
  beforeAll(() => {
    host = new Host({ servers: testEntries(), prompter: human });
  });
  afterAll(async () => {
    await host.close();
  });

  it('both eras list the same tools, with the same titles, descriptions, arguments and hints', async () => {
    const listed = async (server: string) =>
      (await (await host.connect(server)).client.listTools()).tools
        .map(({ name, title, description, inputSchema, annotations }) => ({
          name,
          title,
          description,
          inputSchema,
          annotations,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    const modern = await listed(DEMO_SERVER_NAME);
    expect(await listed(DEMO_LEGACY_SERVER_NAME)).toEqual(modern);
    const byName = Object.fromEntries(modern.map((t) => [t.name, t]));
    expect(byName.delete_time_entry).toMatchObject({
      title: 'Delete time entry',
      annotations: { destructiveHint: true },
    });
    expect(byName.deploy).toMatchObject({ title: 'Deploy a service', annotations: { destructiveHint: true } });
    expect(byName.book_time!.annotations?.destructiveHint).toBeUndefined();
  });

  it('modern: accepting the link without authorizing on the page gets the question again (MRTR), then completes', async () => {
    let firstUrl = '';
    human.script((q) => {
      firstUrl = (q as UrlQuestion).url.href;
      return { action: 'accept' };
    }, authorizeThenAccept);
    const { result, rounds } = await host.call({
      server: DEMO_SERVER_NAME,
      method: 'tools/call',
      name: 'connect_calendar',
      arguments: {},
    });
    expect(textOf(result)).toBe('Connected the work calendar (authorized in the browser).');
    expect(rounds).toBe(2);
    expect(human.asked[1]!.message).toContain('has not seen your authorization');
    expect((human.asked[1] as UrlQuestion).url.href).toBe(firstUrl);
  });

  it('modern: requestState is signed; a forged or altered state is refused', async () => {
    const conn = await host.connect(DEMO_SERVER_NAME);
    const schema = withInputRequired(CallToolResultSchema);
    const params = { name: 'deploy', arguments: { service: 'api', environment: 'production' } };
    const first = await conn.client.request({ method: 'tools/call', params } as never, schema, {
      allowInputRequired: true,
    });
    if (!isInputRequiredResult(first)) throw new Error('expected input_required');
    const state = first.requestState!;
    expect(state).toMatch(/^v1\./);
    const altered = state.slice(0, -2) + (state.endsWith('A') ? 'BB' : 'AA');
    for (const requestState of [altered, 'v1.eyJwIjp7InRvb2wiOiJkZXBsb3kiLCJzdGVwIjoyfX0.AAAA']) {
      await expect(
        conn.client.request(
          {
            method: 'tools/call',
            params: { ...params, requestState, inputResponses: { confirm: { action: 'accept' } } },
          } as never,
          schema,
          { allowInputRequired: true },
        ),
      ).rejects.toMatchObject({ code: -32602 });
    }
    // A genuine state minted for another service is refused by the tool itself.
    const other = await conn.client.request(
      {
        method: 'tools/call',
        params: {
          name: 'deploy',
          arguments: { service: 'other' },
          requestState: state,
          inputResponses: { plan: { action: 'accept', content: { environment: 'staging', strategy: 'rolling' } } },
        },
      } as never,
      schema,
      { allowInputRequired: true },
    );
    expect(other).toMatchObject({ isError: true });
  });

  it('legacy: the URL question carries an elicitationId and the server sends notifications/elicitation/complete after "Authorize"', async () => {
    const entry = demoServers()[DEMO_LEGACY_SERVER_NAME]!;
    if (!isStdioEntry(entry)) throw new Error('expected stdio');
    const client = new Client(
      { name: 'demo-test', version: '1' },
      { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    const completed: string[] = [];
    let elicitationId = '';
    client.setRequestHandler('elicitation/create', async (request) => {
      const p = request.params as { mode?: string; url?: string; elicitationId?: string };
      expect(p.mode).toBe('url');
      elicitationId = p.elicitationId ?? '';
      // The user presses Authorize a little after the host opened the link.
      setTimeout(() => void authorizeInBrowser(p.url!), 100);
      return { action: 'accept' };
    });
    client.setNotificationHandler(
      'notifications/elicitation/complete',
      (n) => void completed.push(n.params.elicitationId),
    );
    class InPlace extends StdioClientTransport {}
    await client.connect(new InPlace({ command: entry.command, args: entry.args ?? [], stderr: 'pipe' }));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const result = await client.callTool({ name: 'connect_calendar', arguments: {} });
      expect(textOf(result as Record<string, unknown>)).toBe(
        'Connected the work calendar (authorized in the browser).',
      );
      expect(elicitationId).not.toBe('');
      expect(completed).toEqual([elicitationId]);
    } finally {
      await client.close();
    }
  });
});

describe('bundled demo server', () => {
  it('builds with esbuild into one .mjs that plain node runs (what a packaged app ships)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'countersign-demo-bundle-'));
    try {
      const { build } = await import('esbuild');
      const outfile = join(root, 'dist', 'demo', 'demo-server.mjs');
      await build({
        entryPoints: [join(import.meta.dirname, 'demo-server.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile,
        logLevel: 'silent',
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      });
      expect(existsSync(outfile)).toBe(true);
      const launch = demoLaunch(join(root, 'dist', 'cli'));
      expect(launch?.kind).toBe('bundled');
      const human = new ScriptedHuman().script(decline);
      const host = new Host({ servers: demoServers(launch), prompter: human });
      try {
        expect((await host.connect(DEMO_SERVER_NAME)).era).toBe('modern');
        expect((await host.connect(DEMO_LEGACY_SERVER_NAME)).era).toBe('legacy');
        const { result } = await host.call({
          server: DEMO_SERVER_NAME,
          method: 'tools/call',
          name: 'delete_time_entry',
          arguments: { entryId: 1 },
        });
        expect(textOf(result)).toBe('Declined by the user: nothing was deleted.');
      } finally {
        await host.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
