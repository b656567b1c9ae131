// `countersign web`: the whole app in the system browser, served by the
// loopback web shell. Runs until Ctrl-C (SIGINT) or SIGTERM.
import { parseCommandFlags, parsePort, untilAborted } from './run-flags';
import {
  ApprovalServerInUseError,
  startApprovalServer,
  type ApprovalHost,
  type ApprovalServer,
} from '../core/approval/approval-server';
import { existsSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HostError, messageOf } from '../core/host-error';
import { JournalHistory } from '../core/service/journal-history';
import { openDataFolder } from '../core/storage/private-files';
import { HostService, type HistoryPort } from '../core/service/host-service';
import type { OpenExternal } from '../core/service/queue-prompter';
import { demoServers } from '../demo/demo-servers';
import { startWebShell, type WebShell } from '../web/web-shell';
import { openWithSystem, runOpener } from '../web/system-opener';
import { notifySystem } from '../web/system-notify';
import { errorLine, logTo, type CliIo } from './io';
import { dataDir } from './paths';

export const WEB_USAGE =
  'usage: countersign web [--port N] [--data-dir DIR] [--no-open] [--open-with PROGRAM] ' +
  `[--renderer DIR]
  serves the app on http://127.0.0.1 (only) with a per-run token in the printed URL
  --port N        port on 127.0.0.1 (default: a free one)
  --data-dir DIR  config, history and caches (default: the platform data folder, or COUNTERSIGN_DATA_DIR)
  --no-open       do not open the system browser
  --open-with PROGRAM  open the app with PROGRAM instead of the system opener; it is run as
                  PROGRAM <launcher.html> (a private page that carries the token; never the URL itself)
  --renderer DIR  the built renderer (default: dist/renderer; build it with "npx vite build")`;

/** What the caller may supply (tests replace the system boundaries). */
export interface WebCommandDeps {
  /** History to use instead of the journal in DIR/history. */
  history?: HistoryPort;
  /** Opens question links (default: the system opener). */
  openExternal?: OpenExternal;
  /** Opens the app's launcher page (its file path) at start (default: the system opener). */
  openBrowser?: (launcherPath: string) => Promise<void>;
}

/** The built renderer: dist/renderer in the repository (or next to a bundled build). */
export function defaultRendererDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dir === parse(dir).root) break;
  }
  // Not built: name where it is expected (the repository root, two levels above electron/cli).
  return resolve(from, '..', '..', 'dist', 'renderer');
}

/** Run `countersign web`; resolves with the exit code once stopped. */
export async function runWebCommand(argv: string[], io: CliIo, deps: WebCommandDeps = {}): Promise<number> {
  const flags = parseCommandFlags(io, WEB_USAGE, () => {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-open': { type: 'boolean' },
        'open-with': { type: 'string' },
        renderer: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    return { values, port: parsePort(values.port) };
  });
  if (typeof flags === 'number') return flags;
  const { values, port } = flags;
  const rendererDir = values.renderer !== undefined ? resolve(values.renderer) : defaultRendererDir();
  if (!existsSync(join(rendererDir, 'index.html'))) {
    io.stderr(
      `countersign: error: the renderer is not built: ${join(rendererDir, 'index.html')} is missing. ` +
        'Build it with "npx vite build" in the repository, or pass --renderer DIR.',
    );
    return 2;
  }

  const dir = values['data-dir'] !== undefined ? resolve(values['data-dir']) : dataDir(io.env);
  const log = logTo(io);
  let history: HistoryPort | undefined = deps.history;
  let service: HostService | undefined;
  let shell: WebShell | undefined;
  let approval: ApprovalServer | undefined;
  try {
    // Before anything in it is read: ours and no symlink, or refused; tightened when loose.
    await openDataFolder(dir);
    // Always recorded (no switch to run without a trace); the journal takes other writers meanwhile.
    if (!history) history = await openHistory(join(dir, 'history'));
    service = await HostService.create({
      dataDir: dir,
      openExternal: deps.openExternal ?? ((url) => openWithSystem(url)),
      // The person's tab opens a consented link (from their click): the host may have no desktop to open it on.
      linkOpening: 'tab',
      // The shell's page frames MCP Apps (electron/web/app-origin.ts), so servers are told it can.
      rendersApps: true,
      firstStartServers: demoServers(),
      ...(history ? { history } : {}),
    });
    service.log = log;
    // Gateways (`countersign gateway`) send their questions here. A question
    // is shown only when a tab can show it: until the shell is up and its
    // browser came (or clearly will not), the approval channel waits.
    let shellStarted: (s: WebShell | undefined) => void = () => undefined;
    const shellReady = new Promise<WebShell | undefined>((r) => (shellStarted = r));
    const svc = service;
    const approvalHost: ApprovalHost = {
      questions: svc.questions,
      observer: svc.observer,
      isMuted: (s) => svc.isMuted(s),
      alert: (a) => svc.alert(a),
      whenVisible: async (signal) =>
        (await shellReady)?.whenVisible(signal) ?? { visible: false, reason: 'the web shell did not start' },
      notify: (title, body) => void notifySystem(title, body, log),
    };
    try {
      approval = await startApprovalServer({
        service: approvalHost,
        dataDir: dir,
        app: 'web',
        log,
      });
    } catch (error) {
      if (!(error instanceof ApprovalServerInUseError)) throw error;
      io.stderr(`countersign: warning: ${error.message}; agents' questions go there, not here`);
    }
    shell = await startWebShell({
      service,
      port,
      rendererDir,
      openBrowser: values['no-open'] !== true,
      ...(deps.openBrowser
        ? { opener: deps.openBrowser }
        : values['open-with'] !== undefined
          ? { opener: programOpener(values['open-with']) }
          : {}),
      log,
    }).catch((e: unknown) => {
      shellStarted(undefined);
      throw e;
    });
    shellStarted(shell);
    io.stdout(`Countersign is running at ${shell.url}`);
    io.stderr('Keep this URL to yourself: it carries the key to this session. Press Ctrl-C to stop.');
    await untilAborted(io.signal);
    io.stderr('countersign: stopping');
    return 0;
  } catch (error) {
    io.stderr(errorLine(messageOf(error)));
    return 2;
  } finally {
    await shell?.close();
    // Before the service: questions it withdraws are still recorded.
    await approval?.close();
    // The service closes the history it was given; without a service, close it here.
    if (service) await service.close();
    else if (history && history !== deps.history) await history.close();
  }
}

/**
 * Opens the launcher page with `program` (one argument, no shell), judged as
 * the system opener is: a program that exits non-zero at once did not open it.
 */
function programOpener(program: string): (launcherPath: string) => Promise<void> {
  return (launcherPath) => runOpener(program, [launcherPath]);
}

async function openHistory(dir: string): Promise<HistoryPort> {
  try {
    return await JournalHistory.open(dir);
  } catch (error) {
    throw new HostError('config', `cannot open the history journal in ${dir}: ${messageOf(error)}`);
  }
}
