// The `countersign` command: dispatches to the subcommands.
import { AUTH_USAGE, runAuthCommand } from './auth-command';
import { runCallCommand, CALL_USAGE } from './call-command';
import { runExerciseCommand, EXERCISE_USAGE } from './exercise-command';
import { runGatewayCommand } from './gateway-command';
import { runHistoryCommand } from './history-command';
import { runTaskCommand, TASK_USAGE } from './task-command';
import { runTestCommand, TEST_USAGE } from './test-command';
import { runWebCommand, WEB_USAGE } from './web-command';
import { processIo, type CliIo } from './io';
import { messageOf } from '../core/host-error';
import { openDataFolder } from '../core/storage/private-files';
import { dataDir } from './paths';

const USAGE = `countersign — an MCP host where server questions reach the human, never the model

commands:
  call       run one tool call, prompt or resource read, answering questions from --elicit specs
  exercise   call every tool of a server once (the conformance client)
  auth       sign in to an HTTP server (login), see the sign-in (status), sign out (logout)
  test       run a script of scripted answers and assertions, in both protocol eras (docs/testing.md)
  task       the long-running tasks calls became: list, get, cancel, follow
  history    list past questions and answers; history verify checks the hash chain
  web        run the app in your browser on 127.0.0.1 (for machines without Electron)
  gateway    an MCP server for agents: their servers' questions go to this app's dialogs (docs/agents.md)

${CALL_USAGE}

${EXERCISE_USAGE}

${TASK_USAGE}

${TEST_USAGE}

${AUTH_USAGE}

${WEB_USAGE}`;

/** Commands that read the data folder (`web` and `gateway` take --data-dir and check theirs themselves). */
const DATA_FOLDER_COMMANDS = new Set(['call', 'exercise', 'test', 'task', 'auth', 'history']);

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && DATA_FOLDER_COMMANDS.has(command)) {
    // Before anything in it is read: ours and no symlink, or refused; tightened when loose.
    try {
      await openDataFolder(dataDir(io.env));
    } catch (error) {
      io.stderr(`countersign: error: ${messageOf(error)}`);
      return 2;
    }
  }
  switch (command) {
    case 'call':
      return runCallCommand(rest, io);
    case 'exercise':
      return runExerciseCommand(rest, io);
    case 'test':
      return runTestCommand(rest, io);
    case 'task':
      return runTaskCommand(rest, io);
    case 'auth':
      return runAuthCommand(rest, io);
    case 'history':
      return runHistoryCommand(rest, { ...io, stdoutAsync: writeStdout });
    case 'web':
      return runWebCommand(rest, io);
    case 'gateway':
      return runGatewayCommand(rest, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    default:
      io.stderr(`countersign: error: unknown command ${JSON.stringify(command)} (try: countersign help)`);
      return 2;
  }
}

/** Write to stdout and wait while it is full, so a streamed export never piles up in memory. */
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.stdout.write(text)) return resolve();
    const onError = (error: Error) => reject(error);
    process.stdout.once('error', onError);
    process.stdout.once('drain', () => {
      process.stdout.off('error', onError);
      resolve();
    });
  });
}

/** Entry point when run as a program. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const code = await runCli(process.argv.slice(2), processIo(controller.signal));
  // Child servers and sockets are closed by then; exit explicitly so a
  // stray handle in a server's transport cannot keep the CLI alive.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}
