// `countersign servers list` and `countersign servers import <file>`: the
// server list in the data folder, and adding servers from another agent's
// config (Claude Desktop, Cursor, Claude Code, VS Code, Codex, Goose). An
// import shows what each server will run before anything is written, asks
// for the `${input:…}` values a VS Code file declares (passwords without
// echo), and writes only after the person said yes. Nothing is started.
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readServerConfigFile, type ServerEntry } from '../core/config/server-config';
import { ServersFile } from '../core/config/servers-file';
import { HostError, messageOf } from '../core/host-error';
import { fillInputs, importPlan, importServers } from '../core/service/import-servers';
import type { ConfigInput, ImportPlanItem } from '../../shared/config/server-entry';
import { errorLine, type CliIo } from './io';
import { readCheckedFile } from '../core/storage/private-files';
import { terminalText } from '../../shared/terminal-text';
import { defaultConfigPath } from './paths';

/** The largest config file an import reads (the same limit as the app's import). */
const IMPORT_MAX_BYTES = 5_000_000;

export const SERVERS_USAGE = `usage: countersign servers list [--json]
       countersign servers import <file> [--yes] [--json]
  list     the servers in the data folder's servers.json: name, what runs, what is still missing
  import   add the servers of another agent's config file (Claude Desktop, Cursor, Claude Code .mcp.json or
           ~/.claude.json, VS Code mcp.json, Codex config.toml, Goose config.yaml): shows what each will run,
           asks for VS Code \${input:…} values, and adds them after you agree (--yes: agree without asking;
           only after reading the list). Nothing is started by importing.`;

/** How the command talks to the person (a terminal; tests give their own). */
export interface ServersDeps {
  /** Ask one line; `hidden` for a password (no echo). Undefined: no terminal to ask on. */
  ask?: ((prompt: string, hidden: boolean) => Promise<string>) | undefined;
}

/**
 * A line from the terminal, echoed or not. The prompt (it may quote the imported file) is escaped before
 * readline gets it; readline's own output (echo, cursor movement) must reach the terminal as it is.
 */
function terminalAsk(prompt: string, hidden: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // eslint-disable-next-line no-restricted-properties -- readline's line editing, not text of ours
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve, reject) => {
    rl.question(terminalText(prompt), (answer) => {
      rl.close();
      // eslint-disable-next-line no-restricted-properties -- ends the hidden line readline left open
      if (hidden) process.stderr.write('\n');
      resolve(answer);
    });
    muted = hidden;
    rl.once('close', () => reject(new HostError('cancelled', 'the question was closed (end of input)')));
  });
}

function describe(item: ImportPlanItem): string[] {
  const kind = 'command' in item.entry ? 'runs' : 'connects to';
  const lines = [`  + ${terminalText(item.name)}: ${kind} ${terminalText(item.runs)}`];
  const entry: ServerEntry = item.entry;
  // Every value here comes from the imported file: each is one escaped field, so none can start a line of its own.
  const names = (record: Record<string, string>) =>
    Object.keys(record)
      .map((k) => terminalText(k))
      .join(', ');
  if ('command' in entry && entry.env) lines.push(`      environment: ${names(entry.env)}`);
  if ('command' in entry && entry.envFile) lines.push(`      environment file: ${terminalText(entry.envFile)}`);
  if ('url' in entry && entry.headers) lines.push(`      headers: ${names(entry.headers)}`);
  for (const need of item.needs) lines.push(`      needs a value: ${terminalText(need)}`);
  return lines;
}

async function askInputs(inputs: ConfigInput[], ask: ServersDeps['ask'], io: CliIo) {
  const values: Record<string, string> = {};
  if (inputs.length === 0) return values;
  if (!ask) {
    io.stderr(
      `countersign: ${inputs.length} value(s) asked for by the file ` +
        `(${inputs.map((i) => terminalText(i.id)).join(', ')}) ` +
        'cannot be asked without a terminal; those servers are added but will not start until the value is set ' +
        '(edit the server in the app)',
    );
    return values;
  }
  for (const input of inputs) {
    const answer = await ask(`${input.description}${input.password ? ' (hidden)' : ''}: `, input.password);
    if (answer !== '') values[input.id] = answer;
  }
  return values;
}

async function runImport(file: string, yes: boolean, json: boolean, io: CliIo, deps: ServersDeps): Promise<number> {
  // Named by the user: it must be theirs, no symlink, not writable by others (never chmod-ed), and of a size a
  // config file has, as the app's import caps it.
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  if (size > IMPORT_MAX_BYTES) throw new HostError('config', `${file} is larger than ${IMPORT_MAX_BYTES} bytes`);
  const text = await readCheckedFile(file, 'own');
  if (text === undefined) throw new HostError('config', `cannot read ${file}: ENOENT`);
  if (text.length > IMPORT_MAX_BYTES) throw new HostError('config', `${file} is larger than ${IMPORT_MAX_BYTES} bytes`);
  const target = defaultConfigPath(io.env);
  const existing = new Set(Object.keys((await readServerConfigFile(target)) ?? {}));
  const planned = importServers(text, existing, file);
  const plan = importPlan(planned.entries);
  io.stderr(`${terminalText(file)} (${planned.format}): ${plan.length} server(s) to add to ${terminalText(target)}`);
  for (const item of plan) for (const line of describe(item)) io.stderr(line);
  for (const s of planned.skipped) io.stderr(`  - ${terminalText(s.name)}: skipped: ${terminalText(s.reason)}`);
  if (plan.length === 0) {
    if (json) io.stdout(JSON.stringify({ imported: [], skipped: planned.skipped }));
    return 0;
  }
  if (!yes) {
    if (!deps.ask)
      throw new HostError(
        'config',
        'nothing was imported: there is no terminal to ask; read the list above and pass --yes to add these servers',
      );
    const agreed = await deps.ask(`Add these ${plan.length} server(s)? [y/N] `, false);
    if (!/^y(es)?$/i.test(agreed.trim())) {
      io.stderr('nothing was imported');
      return 1;
    }
  }
  const values = await askInputs(planned.inputs, deps.ask, io);
  const entries = fillInputs(planned.entries, values, planned.inputs);
  const servers = await ServersFile.open(target);
  let added: string[] = [];
  try {
    await servers.update((raw, current) => {
      added = Object.keys(entries).filter((name) => !(name in current));
      for (const name of added) raw[name] = entries[name];
    });
  } finally {
    servers.close();
  }
  const stillNeed = importPlan(Object.fromEntries(added.map((n) => [n, entries[n]!]))).filter((i) => i.needs.length);
  io.stderr(`added ${added.length} server(s): ${added.map((n) => terminalText(n)).join(', ')}`);
  for (const item of stillNeed)
    io.stderr(
      `  ${terminalText(item.name)} will not start until these are set: ${terminalText(item.needs.join('; '))}`,
    );
  if (json) io.stdout(JSON.stringify({ imported: added, skipped: planned.skipped }));
  return 0;
}

async function runList(json: boolean, io: CliIo): Promise<number> {
  const file = defaultConfigPath(io.env);
  const skipped: Array<{ name: string; reason: string }> = [];
  const plan = importPlan((await readServerConfigFile(file, 'private', (s) => skipped.push(s))) ?? {});
  if (json) {
    io.stdout(JSON.stringify({ file, servers: plan, skipped }));
    return 0;
  }
  if (plan.length === 0 && skipped.length === 0) io.stdout(`no servers in ${terminalText(file)}`);
  for (const item of plan) {
    io.stdout(`${terminalText(item.name)}\t${'command' in item.entry ? 'stdio' : 'http'}\t${terminalText(item.runs)}`);
    for (const need of item.needs) io.stdout(`\tneeds a value: ${terminalText(need)}`);
  }
  for (const s of skipped)
    io.stderr(
      `countersign: warning: ${terminalText(file)}: ` +
        `skipped server "${terminalText(s.name)}": ${terminalText(s.reason)}`,
    );
  return 0;
}

/** Run `countersign servers …`; returns the exit code. */
export async function runServersCommand(argv: string[], io: CliIo, deps?: ServersDeps): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { yes: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    const [sub, ...rest] = positionals;
    if (values.help || sub === undefined) {
      io.stdout(SERVERS_USAGE);
      return sub === undefined && !values.help ? 2 : 0;
    }
    // eslint-disable-next-line no-restricted-properties -- only asks whether a person is at a terminal
    const interactive = process.stdin.isTTY && process.stderr.isTTY;
    const ask = deps ? deps.ask : interactive ? terminalAsk : undefined;
    if (sub === 'list' && rest.length === 0) return await runList(values.json === true, io);
    if (sub === 'import' && rest.length === 1)
      return await runImport(rest[0]!, values.yes === true, values.json === true, io, { ask });
    throw new HostError('config', `servers: expected "list" or "import <file>"\n${SERVERS_USAGE}`);
  } catch (error) {
    io.stderr(errorLine(messageOf(error)));
    return 2;
  }
}
