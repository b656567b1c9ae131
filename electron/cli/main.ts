// The `countersign` command: dispatches to the subcommands. A command's
// module, and with it the host core and the MCP SDK, is loaded only when that
// command runs, so `countersign --help` loads none of them (and `--version`
// is answered by bin/countersign.mjs before this file is even compiled).
import { errorLine, processIo, writeStdoutAsync, type CliIo } from './io';
import { routeConsoleThroughRedaction } from '../core/console-redaction';
import { stderrLog } from '../core/terminal-output';

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS = new Map<string, () => Promise<Command>>([
  ['call', async () => (await import('./call-command')).runCallCommand],
  ['exercise', async () => (await import('./exercise-command')).runExerciseCommand],
  ['test', async () => (await import('./test-command')).runTestCommand],
  ['task', async () => (await import('./task-command')).runTaskCommand],
  ['auth', async () => (await import('./auth-command')).runAuthCommand],
  [
    'history',
    async () => {
      const { runHistoryCommand } = await import('./history-command');
      return (argv, io) => runHistoryCommand(argv, { ...io, stdoutAsync: writeStdoutAsync });
    },
  ],
  ['servers', async () => (await import('./servers-command')).runServersCommand],
  ['receipt', async () => (await import('./receipt-command')).runReceiptCommand],
  ['web', async () => (await import('./web-command')).runWebCommand],
  ['gateway', async () => (await import('./gateway-command')).runGatewayCommand],
]);

const USAGE = `countersign — an MCP host where server questions reach the human, never the model

usage: countersign <command> [options]   (countersign <command> --help: that command's options)
       countersign --version

commands:
  call       run one tool call, prompt or resource read, answering questions from --elicit specs
  exercise   call every tool of a server once (the conformance client)
  auth       sign in to an HTTP server (login), see the sign-in (status), sign out (logout)
  test       run a script of scripted answers and assertions, in both protocol eras (docs/testing.md)
  task       the long-running tasks calls became: list, get, cancel, follow
  history    list past questions and answers; history verify checks the hash chain
  servers    list the configured servers; import another agent's config (Claude, Cursor, VS Code, Codex, Goose)
  receipt    receipt verify FILE: check a passkey receipt offline against the registered passkeys
  web        run the app in your browser on 127.0.0.1 (for machines without Electron)
  gateway    an MCP server for agents: their servers' questions go to this app's dialogs (docs/agents.md)`;

/** Commands that read the data folder (`web` and `gateway` take --data-dir and check theirs themselves). */
const DATA_FOLDER_COMMANDS = new Set(['call', 'exercise', 'test', 'task', 'auth', 'history', 'servers', 'receipt']);

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && DATA_FOLDER_COMMANDS.has(command)) {
    // Before anything in it is read: ours and no symlink, or refused; tightened when loose. (Loaded here, not at
    // the top, so that --help loads no core module.)
    const [{ openDataFolder }, { dataDir }] = await Promise.all([
      import('../core/storage/private-files'),
      import('./paths'),
    ]);
    try {
      await openDataFolder(dataDir(io.env));
    } catch (error) {
      io.stderr(errorLine(error instanceof Error ? error.message : String(error)));
      return 2;
    }
  }
  const load = command === undefined ? undefined : COMMANDS.get(command);
  if (load) return (await load())(rest, io);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  io.stderr(errorLine(`unknown command ${JSON.stringify(command)} (try: countersign help)`));
  return 2;
}

/** Entry point when run as a program. */
export async function main(): Promise<void> {
  // No library's console output reaches stdout or stderr unredacted (console-redaction.ts).
  routeConsoleThroughRedaction(stderrLog);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const code = await runCli(process.argv.slice(2), processIo(controller.signal));
  // Child servers and sockets are closed by then; exit explicitly so a
  // stray handle in a server's transport cannot keep the CLI alive.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}
