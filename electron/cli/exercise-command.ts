// `countersign exercise`: connect, list the tools, and call each one with
// arguments built from its input schema, answering every question by one
// policy. The official conformance suite drives the host through this.
import { parseArgs } from 'node:util';
import { exampleArguments } from '../core/calls/example-arguments';
import type { ServerConnection } from '../core/connection/server-connection';
import type { Host } from '../core/host';
import { HostError, isHostError, messageOf } from '../core/host-error';
import { type CommandDeps, positiveInt } from './call-command';
import { parseElicitSpec, ScriptedPrompter } from './elicit-spec';
import { errorLine, type CliIo } from './io';
import { questionLog } from './question-log';
import { openSession, SESSION_OPTIONS, TARGET_OPTIONS, type CliSession } from './session';
import { resolveTarget } from './target';
import { cliSignIn, SIGN_IN_OPTIONS } from './sign-in';
import { DEFAULT_MAX_ROUNDS } from '../../shared/round-limit';
import { defaultsOf } from '../../shared/elicitation/defaults';
import type { Question } from '../../shared/elicitation/types';
import type { Prompter, PrompterAnswer } from '../core/prompter/prompter';
import { terminalText } from '../../shared/terminal-text';

export const EXERCISE_USAGE =
  'usage: countersign exercise (<url> | --stdio "<command line>" | --server <name> ' +
  `[--config <file>])
         [--elicit <policy>] [--max-rounds N] [--json] [--no-open] [--no-sign-in]
  calls every tool once with arguments built from its input schema;
  <policy> answers every question: accept-defaults (default) | accept | accept:<json> | decline | cancel
  exit 0 when the session worked (even if single tools failed); 2 when it did not`;

/**
 * Arguments a test harness hands the client for named tools: the MCP
 * conformance suite passes `MCP_CONFORMANCE_CONTEXT` with `toolCalls` when a
 * scenario needs particular values. Any harness may use it.
 */
export function harnessToolCalls(env: NodeJS.ProcessEnv): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const raw = env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return out;
  try {
    const ctx = JSON.parse(raw) as { toolCalls?: Array<{ name?: unknown; arguments?: unknown }> };
    for (const c of ctx.toolCalls ?? []) {
      if (typeof c.name === 'string' && typeof c.arguments === 'object' && c.arguments !== null)
        out.set(c.name, c.arguments as Record<string, unknown>);
    }
  } catch {
    // Not ours to judge: without usable context the schema-built arguments are used.
  }
  return out;
}

/** Get every prompt and read every resource once; failures are reported, not fatal. */
async function exercisePromptsAndResources(host: Host, server: string, conn: ServerConnection, io: CliIo) {
  const caps = conn.client.getServerCapabilities() ?? {};
  const prompts: Array<{ prompt: string; outcome: 'ok' | 'error'; error?: string }> = [];
  const resources: Array<{ uri: string; outcome: 'ok' | 'error'; error?: string }> = [];
  const signal = io.signal ? { signal: io.signal } : {};
  if (caps.prompts) {
    const listed = await conn.client.listPrompts().then(
      (r) => r.prompts,
      () => [],
    );
    for (const p of listed) {
      const args = Object.fromEntries((p.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'x']));
      try {
        await host.call({ server, method: 'prompts/get', name: p.name, arguments: args, ...signal });
        prompts.push({ prompt: p.name, outcome: 'ok' });
      } catch (error) {
        if (isHostError(error, 'cancelled')) throw error;
        prompts.push({ prompt: p.name, outcome: 'error', error: messageOf(error) });
      }
    }
  }
  if (caps.resources) {
    const listed = await conn.client.listResources().then(
      (r) => r.resources,
      () => [],
    );
    for (const r of listed) {
      try {
        await host.call({ server, method: 'resources/read', name: r.uri, ...signal });
        resources.push({ uri: r.uri, outcome: 'ok' });
      } catch (error) {
        if (isHostError(error, 'cancelled')) throw error;
        resources.push({ uri: r.uri, outcome: 'error', error: messageOf(error) });
      }
    }
  }
  return { prompts, resources };
}

/**
 * The policy's prompter, remembering the last form it was asked, so that a
 * form the policy cannot fill (a required field without a default) is
 * reported as a tool skipped for want of a value rather than as a failure.
 */
class RememberingPrompter implements Prompter {
  private last: Extract<Question, { mode: 'form' }> | undefined;
  constructor(private readonly inner: Prompter) {}
  ask(question: Question, signal: AbortSignal): Promise<PrompterAnswer> {
    this.last = question.mode === 'form' ? question : undefined;
    return this.inner.ask(question, signal);
  }
  /** The form asked last since the previous call of this (then forgotten). */
  takeLastForm(): Extract<Question, { mode: 'form' }> | undefined {
    const last = this.last;
    this.last = undefined;
    return last;
  }
}

/** The required fields of `form` that its defaults leave empty. */
function fieldsWithoutDefault(form: Extract<Question, { mode: 'form' }>): string[] {
  const defaults = defaultsOf(form.requestedSchema);
  return (form.requestedSchema.required ?? []).filter((name) => !Object.hasOwn(defaults, name));
}

type Outcome = 'ok' | 'error' | 'tool-error' | 'skipped';

/** One plain-output line per tool, prompt or resource. */
function reportLine(kind: 'TOOL' | 'PROMPT' | 'RESOURCE', name: string, outcome: Outcome, detail?: string): string {
  return `[${kind}] ${terminalText(name)} -> ${outcome}${detail ? `: ${terminalText(detail)}` : ''}`;
}

/** Run `countersign exercise`; returns the exit code. */
export async function runExerciseCommand(argv: string[], io: CliIo, deps: CommandDeps = {}): Promise<number> {
  let session: CliSession | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { ...TARGET_OPTIONS, ...SESSION_OPTIONS, ...SIGN_IN_OPTIONS, elicit: { type: 'string' } },
    });
    if (values.help) {
      io.stdout(EXERCISE_USAGE);
      return 0;
    }
    if (positionals.length > 1)
      throw new HostError('config', `exercise takes one server URL, got ${positionals.length}`);
    // The conformance suite appends the server URL as the last argument.
    const url = values.url ?? positionals[0];
    const target = await resolveTarget({ ...values, ...(url !== undefined ? { url } : {}) }, io.env, (line) =>
      io.stderr(line),
    );
    const policy = parseElicitSpec(values.elicit ?? 'accept-defaults');
    const log = questionLog((line) => io.stderr(line));
    const prompter = new RememberingPrompter(new ScriptedPrompter([], policy));
    session = await openSession({
      io,
      target,
      prompter,
      maxRounds: positiveInt('--max-rounds', values['max-rounds'], DEFAULT_MAX_ROUNDS),
      observers: [log.observer, deps.observer],
      ...cliSignIn(io, values, deps.signIn),
    });
    const { host } = session;
    const conn = await host.connect(target.name, io.signal);
    const tools = await host.listTools(target.name, io.signal);
    const given = harnessToolCalls(io.env);
    const report: Array<{
      tool: string;
      arguments: Record<string, unknown>;
      outcome: Outcome;
      error?: string;
      needs?: string[];
    }> = [];
    for (const tool of tools) {
      const args = given.get(tool.name) ?? exampleArguments(tool.inputSchema);
      prompter.takeLastForm();
      try {
        const { result } = await host.call({
          server: target.name,
          method: 'tools/call',
          name: tool.name,
          arguments: args,
          ...(io.signal ? { signal: io.signal } : {}),
        });
        const outcome = result.isError === true ? 'tool-error' : 'ok';
        report.push({ tool: tool.name, arguments: args, outcome });
        if (!values.json) io.stdout(reportLine('TOOL', tool.name, outcome));
      } catch (error) {
        if (isHostError(error, 'cancelled')) throw error;
        const form = prompter.takeLastForm();
        const needs = isHostError(error, 'invalid-answer') && form ? fieldsWithoutDefault(form) : [];
        if (needs.length > 0) {
          // Not a failure of the server: the policy had no value to give, and nothing invalid was sent.
          report.push({ tool: tool.name, arguments: args, outcome: 'skipped', needs });
          if (!values.json)
            io.stdout(reportLine('TOOL', tool.name, 'skipped', `needs a value for ${needs.join(', ')}`));
          continue;
        }
        report.push({ tool: tool.name, arguments: args, outcome: 'error', error: messageOf(error) });
        if (!values.json) io.stdout(reportLine('TOOL', tool.name, 'error', messageOf(error)));
      }
    }
    const extras = await exercisePromptsAndResources(host, target.name, conn, io);
    if (!values.json) {
      for (const p of extras.prompts) io.stdout(reportLine('PROMPT', p.prompt, p.outcome, p.error));
      for (const r of extras.resources) io.stdout(reportLine('RESOURCE', r.uri, r.outcome, r.error));
    }
    if (values.json)
      io.stdout(
        JSON.stringify({
          era: conn.era,
          protocolVersion: conn.protocolVersion,
          tools: report,
          ...extras,
          questions: log.records,
        }),
      );
    return 0;
  } catch (error) {
    io.stderr(errorLine(messageOf(error)));
    return 2;
  } finally {
    await session?.close();
  }
}
