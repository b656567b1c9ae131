// `countersign task list|get|cancel|follow`: the tasks this host started, as
// remembered in the data folder. `get` asks the server once (tasks/get),
// `cancel` sends tasks/cancel and prints what the server then reports,
// `follow` picks a task up again (after --detach, or after the CLI or app
// was stopped): a question it waits for is asked again.
import { parseArgs } from 'node:util';
import { FileTaskStore, type TaskRecord } from '../core/tasks/task-store';
import { HostError, isHostError, messageOf } from '../core/host-error';
import { inputClosedExit, parseElicitStep, TerminalPrompter } from './terminal-prompter';
import { errorLine, type CliIo } from './io';
import { dataDir } from './paths';
import { questionLog } from './question-log';
import { openSession, TARGET_OPTIONS, type CliSession } from './session';
import { resolveTarget } from './target';
import { formatResult, taskLine } from './call-command';
import { DEFAULT_MAX_ROUNDS } from '../../shared/round-limit';
import { LINE_MAX, terminalText } from '../../shared/terminal-text';

export const TASK_USAGE = `usage: countersign task list [--json]
       countersign task (get | cancel | follow) <task id or prefix> (--stdio "<cmd>" | --url <url> | --server <name>)
         [--name <label>] [--elicit <spec>]... [--json]   (<spec> as for call, ask included)
  list: the tasks this host started (running first); get: the server's view now;
  cancel: tasks/cancel, then the state the server reports; follow: to its end, asking its questions`;

/** One task as `task list` shows it; every field came from a server or tasks.json, so each is shown escaped. */
function row(r: TaskRecord): string {
  const age = Math.max(0, Math.round((Date.now() - Date.parse(r.startedAt)) / 1000));
  const state = terminalText(r.endedAt ? `${r.status} (ended)` : r.status);
  return (
    `${terminalText(r.taskId)}  ${terminalText(r.server)}  ${terminalText(r.tool)}  ${state}  ` +
    `${age}s${r.statusMessage ? `  "${terminalText(r.statusMessage, { max: 80 })}"` : ''}` +
    `${r.note ? `  note: ${terminalText(r.note)}` : ''}`
  );
}

/** Run `countersign task …`; returns the exit code. */
export async function runTaskCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  let session: CliSession | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: {
        ...TARGET_OPTIONS,
        json: { type: 'boolean' },
        elicit: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help || sub === undefined || sub === 'help') {
      io.stdout(TASK_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'list') {
      const records = await new FileTaskStore(dataDir(io.env)).load();
      records.sort(
        (a, b) =>
          Number(a.endedAt !== undefined) - Number(b.endedAt !== undefined) || (a.startedAt < b.startedAt ? 1 : -1),
      );
      if (values.json) io.stdout(JSON.stringify(records));
      else io.stdout(records.length === 0 ? 'No tasks.' : records.map(row).join('\n'));
      return 0;
    }
    if (sub !== 'get' && sub !== 'cancel' && sub !== 'follow')
      throw new HostError('config', `unknown task command ${JSON.stringify(sub)} (list, get, cancel, follow)`);
    const id = positionals[0];
    if (!id) throw new HostError('config', `task ${sub} needs a task id`);
    const target = await resolveTarget(values, io.env, (line) => io.stderr(line));
    const log = questionLog((line) => io.stderr(line));
    const prompter = new TerminalPrompter((values.elicit ?? []).map(parseElicitStep), io);
    session = await openSession({
      io,
      target,
      prompter,
      maxRounds: DEFAULT_MAX_ROUNDS,
      observers: [log.observer],
    });
    const { host } = session;
    const record = await host.tasks.find(id);
    if (!record) throw new HostError('config', `no task "${id}" is known to this host (see: countersign task list)`);
    if (record.server !== target.name)
      throw new HostError(
        'config',
        `task ${record.taskId} belongs to server "${record.server}", ` +
          `not "${target.name}" (use --name ${record.server})`,
      );
    if (sub === 'get') {
      const { snapshot, error } = await host.tasks.look(record.taskId);
      if (values.json)
        io.stdout(JSON.stringify({ record, ...(snapshot ? { snapshot } : {}), ...(error ? { error } : {}) }));
      else
        io.stdout(
          snapshot
            ? taskLine(snapshot.taskId, snapshot.status, snapshot.statusMessage)
            : `${row(record)}\n(server: ${terminalText(error ?? '', { max: LINE_MAX })})`,
        );
      return error ? 2 : 0;
    }
    if (sub === 'cancel') {
      const after = await host.tasks.cancel(record.taskId);
      if (values.json) io.stdout(JSON.stringify(after));
      else
        io.stdout(
          `${terminalText(after.taskId)} ${terminalText(after.status)}` +
            `${after.note ? ` (${terminalText(after.note)})` : ''}`,
        );
      return 0;
    }
    host.tasks.onChange(({ record: r, previous }) => {
      if (previous !== undefined) io.stderr(taskLine(r.taskId, r.status, r.statusMessage));
    });
    const resumed = (await host.tasks.resume(io.signal)).find((x) => x.record.taskId === record.taskId);
    if (!resumed) {
      const now = await host.tasks.find(record.taskId);
      throw new HostError('config', `task ${record.taskId} is not running any more${now?.note ? `: ${now.note}` : ''}`);
    }
    const result = await resumed.done;
    io.stdout(values.json ? JSON.stringify({ taskId: record.taskId, result }) : formatResult(result));
    return inputClosedExit(prompter, io) ?? (result.isError === true ? 1 : 0);
  } catch (error) {
    io.stderr(errorLine(isHostError(error) ? error.message : messageOf(error)));
    return 2;
  } finally {
    await session?.close();
  }
}
