// `countersign call`: run one tool call (or prompt / resource read) against a
// server, answering its questions from --elicit specs. The flags, the JSON
// shape and the exit codes are a contract pinned by tests.
import { parseArgs } from 'node:util';
import type { CallMethod } from '../../shared/elicitation/types';
import type { HostObserver } from '../core/events';
import { HostError, isHostError, messageOf } from '../core/host-error';
import { inputClosedExit, parseElicitStep, TerminalPrompter } from './terminal-prompter';
import { errorLine, type CliIo } from './io';
import { questionLog } from './question-log';
import { openSession, SESSION_OPTIONS, TARGET_OPTIONS, type CliSession } from './session';
import { resolveTarget } from './target';
import { cliSignIn, SIGN_IN_OPTIONS, type SignInDeps } from './sign-in';
import { DEFAULT_MAX_ROUNDS, MAX_MAX_ROUNDS, MIN_MAX_ROUNDS } from '../../shared/round-limit';
import { terminalText } from '../../shared/terminal-text';

export const CALL_USAGE =
  'usage: countersign call (--stdio "<command line>" | --url <url> | --server <name> ' +
  `[--config <file>])
         (--tool <name> [--args '<json>'] | --prompt <name> [--args '<json>'] | --resource <uri>)
         [--elicit <spec>]... [--max-rounds N] [--json] [--name <label>]
         [--no-open] [--no-sign-in] [--task] [--detach]
  <spec>: accept | accept:<json object> | accept-defaults | decline | cancel
          | ask (print the question to stderr and read the answer, one of the above, from stdin)
  a server that needs a sign-in: the link is printed and opened in the system browser
  (--no-open: only printed; --no-sign-in: exit 2 with one line instead)
  a call that becomes a task is followed to its end, its status changes printed to stderr
  (--task: run a tool whose taskSupport is "optional" as a task; --detach: print the task id and exit 0)
  exit 0: result with isError false; 1: result with isError true; 2: protocol or host error`;

/** Parse a round-limit flag (--max-rounds) or fail naming it: the same bounds as the app's setting. */
export function positiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_MAX_ROUNDS || n > MAX_MAX_ROUNDS)
    throw new HostError(
      'config',
      `${flag} must be a whole number from ${MIN_MAX_ROUNDS} to ${MAX_MAX_ROUNDS}, not ${JSON.stringify(value)}`,
    );
  return n;
}

function parseJsonObject(flag: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new HostError('config', `${flag} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new HostError('config', `${flag} must be a JSON object`);
  return v as Record<string, unknown>;
}

/** Extra observers the caller wants (history journal). */
export interface CommandDeps {
  observer?: HostObserver;
  /** Sign-in parts a harness or test replaces (credential store, opener, consent). */
  signIn?: SignInDeps;
}

/** Run `countersign call`; returns the exit code. */
export async function runCallCommand(argv: string[], io: CliIo, deps: CommandDeps = {}): Promise<number> {
  let json = false;
  const state: { era?: string; protocolVersion?: string } = {};
  const log = questionLog((line) => io.stderr(line));
  let session: CliSession | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...TARGET_OPTIONS,
        ...SESSION_OPTIONS,
        ...SIGN_IN_OPTIONS,
        tool: { type: 'string' },
        prompt: { type: 'string' },
        resource: { type: 'string' },
        args: { type: 'string' },
        elicit: { type: 'string', multiple: true },
        task: { type: 'boolean' },
        detach: { type: 'boolean' },
      },
    });
    if (values.help) {
      io.stdout(CALL_USAGE);
      return 0;
    }
    json = values.json === true;
    const targets = [values.tool, values.prompt, values.resource].filter((v) => v !== undefined);
    if (targets.length !== 1)
      throw new HostError('config', 'give exactly one of --tool <name>, --prompt <name> or --resource <uri>');
    const method: CallMethod =
      values.tool !== undefined ? 'tools/call' : values.prompt !== undefined ? 'prompts/get' : 'resources/read';
    const name = (values.tool ?? values.prompt ?? values.resource)!;
    const args = parseJsonObject('--args', values.args);
    if (args && method === 'resources/read') throw new HostError('config', '--args does not apply to --resource');
    const specs = (values.elicit ?? []).map(parseElicitStep);
    const maxRounds = positiveInt('--max-rounds', values['max-rounds'], DEFAULT_MAX_ROUNDS);
    const target = await resolveTarget(values, io.env, (line) => io.stderr(line));
    const prompter = new TerminalPrompter(specs, io);
    session = await openSession({
      io,
      target,
      prompter,
      maxRounds,
      observers: [log.observer, deps.observer],
      ...cliSignIn(io, values, deps.signIn),
    });
    const { host } = session;
    let lastTaskLine = '';
    host.tasks.onChange(({ record, previous }) => {
      if (previous === undefined && record.endedAt !== undefined) return;
      // A poll that saw the same status and message again is not a change worth a line.
      const line = taskLine(record.taskId, record.status, record.statusMessage);
      if (line !== lastTaskLine) io.stderr(line);
      lastTaskLine = line;
    });
    const conn = await host.connect(target.name, io.signal);
    state.era = conn.era;
    state.protocolVersion = conn.protocolVersion;
    const { result, task } = await host.call({
      server: target.name,
      method,
      name,
      ...(args ? { arguments: args } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(values.task ? { preferTask: true } : {}),
      ...(values.detach ? { detach: true } : {}),
    });
    if (json)
      io.stdout(
        JSON.stringify({
          era: state.era,
          protocolVersion: state.protocolVersion,
          questions: log.records,
          result,
          ...(task ? { task } : {}),
        }),
      );
    else if (task?.detached) io.stdout(task.taskId);
    else io.stdout(formatResult(result));
    return inputClosedExit(prompter, io) ?? (result.isError === true ? 1 : 0);
  } catch (error) {
    const message = isHostError(error) ? error.message : messageOf(error);
    io.stderr(errorLine(message));
    if (json) {
      io.stdout(
        JSON.stringify({
          ...state,
          questions: log.records,
          error: { code: isHostError(error) ? error.code : 'protocol', message },
        }),
      );
    }
    return 2;
  } finally {
    await session?.close();
  }
}

/** One stderr line per task status change (the id, status and message are the server's: shown escaped). */
export function taskLine(taskId: string, status: string, message?: string): string {
  const quoted = message ? ` "${terminalText(message, { max: 200 })}"` : '';
  return `[TASK] ${terminalText(taskId)} ${terminalText(status)}${quoted}`;
}

/** Human-readable result: text content as is, everything else as JSON. */
export function formatResult(result: Record<string, unknown>): string {
  const content = result.content ?? result.messages ?? result.contents;
  if (
    Array.isArray(content) &&
    content.every((c) => typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text')
  ) {
    return content.map((c) => (c as { text: string }).text).join('\n');
  }
  return JSON.stringify(result, null, 2);
}
